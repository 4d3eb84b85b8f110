#!/usr/bin/env python3
"""Fixtures/eddsa: EdDSA material made by OpenSSL (the independent signer).

- signatures.json: Ed25519 and Ed448 signatures from `openssl pkeyutl -sign -rawin` over
  messages of assorted lengths (1 B to 4 KiB; openssl 3.0 pkeyutl refuses an empty one), one fresh key per message.
- <alg>/root.pem, intermediate.pem, leaf.pem (+ .der): an EdDSA chain made with `openssl req` /
  `openssl x509` (every level signed by the same algorithm), a leaf whose signature has one
  flipped bit (leaf-badsig.pem), the root's CRL (empty), an intermediate CRL (`openssl ca -gencrl`, the intermediate's
  EdDSA key signing) revoking revoked-leaf.pem, and an OCSP response signed by the intermediate.
- manifest.json: the verdicts of `openssl verify` (with -crl_check_all and both CRLs for the
  CRL cases) and
  `openssl ocsp`, which the tests assert Sigil agrees with.

Keys are not kept (fresh each run). Needs openssl 3.x on PATH.
"""
import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "eddsa")


def run(*args, input=None, check=True):
    r = subprocess.run(args, input=input, capture_output=True)
    if check and r.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(args), r.stderr.decode()))
    return r


def signatures(tmp):
    out = {}
    lengths = [1, 2, 3, 31, 32, 33, 63, 64, 65, 111, 112, 113, 127, 128, 129, 200, 255, 256, 1000, 1024, 4096]
    for alg in ("ed25519", "ed448"):
        cases = []
        for i, n in enumerate(lengths):
            key = os.path.join(tmp, "k.pem")
            run("openssl", "genpkey", "-algorithm", alg.upper(), "-out", key)
            msg = os.urandom(n)
            mf = os.path.join(tmp, "m.bin")
            with open(mf, "wb") as f:
                f.write(msg)
            sig = run("openssl", "pkeyutl", "-sign", "-rawin", "-inkey", key, "-in", mf).stdout
            der = run("openssl", "pkey", "-in", key, "-pubout", "-outform", "DER").stdout
            pub = der[-(32 if alg == "ed25519" else 57):]
            sf = os.path.join(tmp, "s.bin")
            with open(sf, "wb") as f:
                f.write(sig)
            pf = os.path.join(tmp, "p.pem")
            run("openssl", "pkey", "-in", key, "-pubout", "-out", pf)
            ok = run("openssl", "pkeyutl", "-verify", "-rawin", "-pubin", "-inkey", pf, "-in", mf, "-sigfile", sf, check=False)
            assert ok.returncode == 0
            cases.append({"publicKey": pub.hex(), "message": msg.hex(), "signature": sig.hex()})
        out[alg] = cases
    with open(os.path.join(OUT, "signatures.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


EXT = """
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[int]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, digitalSignature, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = DNS:leaf.{alg}.sigil.test
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""

CA = """
[ca]
default_ca = CA_default
[CA_default]
database = {dir}/index.txt
unique_subject = no
crlnumber = {dir}/crlnumber
default_md = default
default_crl_days = 3650
crl_extensions = crl_ext
[crl_ext]
authorityKeyIdentifier = keyid
"""

# Validity: fixed where openssl x509 has -not_before/-not_after (3.4+), else 10 years from
# the run (openssl 3.0); AT lies inside both.
NOT_BEFORE, NOT_AFTER = "20250101000000Z", "20350101000000Z"
AT = 1893456000  # 2030-01-01T00:00:00Z


def chain(tmp, alg, manifest):
    d = os.path.join(OUT, alg)
    os.makedirs(d, exist_ok=True)
    ext = os.path.join(tmp, "ext.cnf")
    with open(ext, "w") as f:
        f.write(EXT.replace("{alg}", alg))

    def key(name):
        p = os.path.join(tmp, name + ".key")
        run("openssl", "genpkey", "-algorithm", alg.upper(), "-out", p)
        return p

    def cert(name, cn, k, section, issuer=None, issuer_key=None):
        csr = os.path.join(tmp, name + ".csr")
        run("openssl", "req", "-new", "-key", k, "-subj", "/C=US/O=Sigil Test PKI/CN=" + cn, "-out", csr)
        out = os.path.join(d, name + ".pem")
        args = ["openssl", "x509", "-req", "-in", csr, "-extfile", ext, "-extensions", section,
                "-not_before", NOT_BEFORE, "-not_after", NOT_AFTER, "-set_serial",
                str(0x5160000 + len(name) * 97 + sum(map(ord, name))), "-out", out]
        if issuer is None:
            args += ["-key", k]
        else:
            args += ["-CA", issuer, "-CAkey", issuer_key]
        r = run(*args, check=False)
        if r.returncode != 0:  # openssl 3.0 has no -not_before: fall back to -days
            args = [a for a in args]
            i = args.index("-not_before")
            del args[i:i + 4]
            args += ["-days", "3650"]
            run(*args)
        run("openssl", "x509", "-in", out, "-outform", "DER", "-out", os.path.join(d, name + ".der"))
        return out

    rk, ik, lk, rvk = key("root"), key("int"), key("leaf"), key("revoked")
    root = cert("root", "EdDSA Root " + alg, rk, "root")
    inter = cert("intermediate", "EdDSA Intermediate " + alg, ik, "int", root, rk)
    leaf = cert("leaf", "leaf." + alg + ".sigil.test", lk, "leaf", inter, ik)
    revoked = cert("revoked-leaf", "leaf." + alg + ".sigil.test", rvk, "leaf", inter, ik)
    # One flipped bit in the signature value (the last byte of the DER).
    der = bytearray(open(os.path.join(d, "leaf.der"), "rb").read())
    der[-1] ^= 0x01
    bad = os.path.join(d, "leaf-badsig.der")
    with open(bad, "wb") as f:
        f.write(der)
    badpem = os.path.join(d, "leaf-badsig.pem")
    run("openssl", "x509", "-inform", "DER", "-in", bad, "-out", badpem)

    # CRL by the intermediate, revoking revoked-leaf.
    cadir = os.path.join(tmp, "ca-" + alg)
    os.makedirs(cadir, exist_ok=True)
    open(os.path.join(cadir, "index.txt"), "w").close()
    with open(os.path.join(cadir, "crlnumber"), "w") as f:
        f.write("1000\n")
    cnf = os.path.join(cadir, "ca.cnf")
    with open(cnf, "w") as f:
        f.write(CA.replace("{dir}", cadir))
    run("openssl", "ca", "-config", cnf, "-cert", inter, "-keyfile", ik, "-valid", leaf)
    run("openssl", "ca", "-config", cnf, "-cert", inter, "-keyfile", ik, "-revoke", revoked, "-crl_reason", "keyCompromise")
    crl = os.path.join(d, "intermediate.crl.pem")
    run("openssl", "ca", "-config", cnf, "-cert", inter, "-keyfile", ik, "-gencrl", "-out", crl)
    run("openssl", "crl", "-in", crl, "-outform", "DER", "-out", os.path.join(d, "intermediate.crl.der"))
    # The root's CRL (nothing revoked), so every certificate below the anchor has a CRL in
    # scope (-crl_check_all; Sigil checks the whole path).
    rootdir = os.path.join(tmp, "rootca-" + alg)
    os.makedirs(rootdir, exist_ok=True)
    open(os.path.join(rootdir, "index.txt"), "w").close()
    with open(os.path.join(rootdir, "crlnumber"), "w") as f:
        f.write("2000\n")
    rcnf = os.path.join(rootdir, "ca.cnf")
    with open(rcnf, "w") as f:
        f.write(CA.replace("{dir}", rootdir))
    rootcrl = os.path.join(d, "root.crl.pem")
    run("openssl", "ca", "-config", rcnf, "-cert", root, "-keyfile", rk, "-gencrl", "-out", rootcrl)
    # A CRL with one flipped bit in its signature.
    cder = bytearray(open(os.path.join(d, "intermediate.crl.der"), "rb").read())
    cder[-1] ^= 0x01
    with open(os.path.join(d, "intermediate-badsig.crl.der"), "wb") as f:
        f.write(cder)

    # OCSP response for the leaf and the revoked leaf, signed by the intermediate.
    for name, target in (("leaf", leaf), ("revoked-leaf", revoked)):
        req = os.path.join(tmp, name + ".req")
        run("openssl", "ocsp", "-issuer", inter, "-cert", target, "-no_nonce", "-reqout", req)
        resp = os.path.join(d, name + ".ocsp.der")
        run("openssl", "ocsp", "-index", os.path.join(cadir, "index.txt"), "-rsigner", inter, "-rkey", ik,
            "-CA", inter, "-reqin", req, "-respout", resp, "-ndays", "3650")

    def verify(target, crl_check=False, crlfile=None):
        args = ["openssl", "verify", "-attime", str(AT), "-CAfile", root, "-untrusted", inter]
        if crl_check:
            args += ["-crl_check_all", "-CRLfile", crlfile, "-CRLfile", rootcrl]
        r = run(*(args + [target]), check=False)
        return "trusted" if r.returncode == 0 else "untrusted"

    def ocsp(target, resp):
        r = run("openssl", "ocsp", "-respin", resp, "-issuer", inter, "-cert", target, "-CAfile", root,
                "-attime", str(AT), "-no_nonce", check=False)
        text = r.stdout.decode()
        status = "good" if ": good" in text else "revoked" if ": revoked" in text else "unknown"
        return {"verified": "Response verify OK" in r.stderr.decode(), "status": status}

    der_crl = os.path.join(d, "intermediate-badsig.crl.pem")
    run("openssl", "crl", "-inform", "DER", "-in", os.path.join(d, "intermediate-badsig.crl.der"), "-out", der_crl)
    manifest[alg] = {
        "at": AT,
        "host": "leaf." + alg + ".sigil.test",
        "leaf": verify(leaf),
        "leaf-badsig": verify(badpem),
        "intermediate-self": verify(inter),
        "crl-leaf": verify(leaf, True, crl),
        "crl-revoked-leaf": verify(revoked, True, crl),
        "crl-badsig-leaf": verify(leaf, True, der_crl),
        "ocsp-leaf": ocsp(leaf, os.path.join(d, "leaf.ocsp.der")),
        "ocsp-revoked-leaf": ocsp(revoked, os.path.join(d, "revoked-leaf.ocsp.der")),
    }
    os.remove(der_crl)


def main():
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp()
    try:
        signatures(tmp)
        manifest = {"generator": "Fixtures/scripts/gen_eddsa.py",
                    "openssl": run("openssl", "version").stdout.decode().strip()}
        for alg in ("ed25519", "ed448"):
            chain(tmp, alg, manifest)
        with open(os.path.join(OUT, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")
        print(json.dumps(manifest, indent=1))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
