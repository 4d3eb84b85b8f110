import SigilX509
