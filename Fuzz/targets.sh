# The fuzz targets, in the order run-all.sh runs them (sourced by the scripts). Add new
# targets here (FuzzCertificate, FuzzPEM, FuzzNames, FuzzSignature, FuzzVerify, ...).
TARGETS=(FuzzDER FuzzDifferentialDER)
