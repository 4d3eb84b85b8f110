# The fuzz targets, in the order run-all.sh runs them (sourced by the scripts). A new target
# also needs its executable in Package.swift, its walk in Sources/FuzzSupport, and seeds
# (make-corpus.sh; make-seeds.py for structured inputs).
TARGETS=(FuzzDER FuzzDifferentialDER FuzzCertificate FuzzPEM FuzzNames FuzzSignature FuzzVerify FuzzPolicy FuzzInspect FuzzVerifyDiff FuzzSecurityPolicy FuzzTrustStore FuzzCRL FuzzOCSP FuzzCT)
