import SigilDER
