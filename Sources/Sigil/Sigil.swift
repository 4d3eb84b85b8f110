@_exported import SigilCrypto
@_exported import SigilDER
@_exported import SigilTrust
@_exported import SigilX509
