@_exported import SigilDER
@_exported import SigilX509
@_exported import SigilCrypto
@_exported import SigilTrust
