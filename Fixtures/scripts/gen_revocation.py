#!/usr/bin/env python3
"""Generates Fixtures/revocation/: a small PKI, CRLs made by `openssl ca -gencrl` (delta CRLs by
`openssl crl -gendelta`, and with Python `cryptography` where openssl cannot: a removeFromCRL
delta), OCSP responses made by `openssl ocsp`, and manifest.json with the expected verdict of
every scenario as OpenSSL gives it (`openssl verify -crl_check[_all] [-use_deltas]`,
`openssl ocsp -resp_text` / `-verify`). Sigil's tests read the manifest; nothing in it comes
from Sigil.

Times: everything is relative to the generation time G (rounded to the minute). The
verification time T = G + 1 h is recorded; CRLs are valid [G - 1 h, G + 30 d] unless the
scenario says otherwise. Run: python3 Fixtures/scripts/gen_revocation.py
(`--sigalg-only`: remake only Fixtures/revocation/sigalg/, see `sigalg_fixtures`).
"""
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.x509.oid import CRLEntryExtensionOID

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "revocation")
UTC = dt.timezone.utc
G = dt.datetime.now(UTC).replace(second=0, microsecond=0)
T = G + dt.timedelta(hours=1)


def run(*args, check=True, cwd=None):
    p = subprocess.run(list(args), capture_output=True, text=True, cwd=cwd or OUT)
    if check and p.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{p.stdout}\n{p.stderr}")
    return p


def ts(d):
    return d.strftime("%Y%m%d%H%M%SZ")


def key(name):
    run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", f"{name}.key")


EXT = """
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:http://crl.sigil.test/root.crl
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:http://crl.sigil.test/int.crl
[leafsan]
[responder]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
noCheck = ignored
[badresponder]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""

serial_counter = [0x1000]


def cert(name, cn, issuer, section, host=None):
    """A certificate for `name`.key, signed by `issuer` (None: self-signed)."""
    key(name)
    ext = EXT
    if host:
        ext = ext.replace("[leafsan]", f"[leafsan]\nsubjectAltName = DNS:{host}")
    with open(os.path.join(OUT, "ext.cnf"), "w") as f:
        f.write(ext)
    serial_counter[0] += 1
    nb, na = ts(G - dt.timedelta(days=1)), ts(G + dt.timedelta(days=3650))
    run("openssl", "req", "-new", "-key", f"{name}.key", "-subj", f"/CN={cn}", "-out", f"{name}.csr")
    # `openssl x509 -req` has no not-before option in 3.0: use `openssl ca`-free path with -days
    # and accept not-before = now (G - 1 h margin is not needed: T > G).
    args = ["openssl", "x509", "-req", "-in", f"{name}.csr", "-out", f"{name}.pem", "-days", "3650",
            "-set_serial", str(serial_counter[0]), "-extfile", "ext.cnf", "-extensions", section, "-sha256"]
    if issuer is None:
        args += ["-key", f"{name}.key"]
    else:
        args += ["-CA", f"{issuer}.pem", "-CAkey", f"{issuer}.key"]
    run(*args)
    if host:
        # the SAN goes with the leaf section
        pass
    os.remove(os.path.join(OUT, f"{name}.csr"))
    return name


def ca_config(name, crl_exts=""):
    d = os.path.join(OUT, f"db-{name}")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "index.txt"), "w").close()
    with open(os.path.join(d, "crlnumber"), "w") as f:
        f.write("1000\n")
    with open(os.path.join(OUT, f"{name}.cnf"), "w") as f:
        f.write(f"""[ca]
default_ca = CA_default
[CA_default]
database = db-{name}/index.txt
crlnumber = db-{name}/crlnumber
default_md = sha256
default_crl_days = 30
crl_extensions = crl_ext
[crl_ext]
authorityKeyIdentifier = keyid:always
{crl_exts}
""")


def revoke(ca, cert_name, reason=None, hold=False):
    args = ["openssl", "ca", "-config", f"{ca}.cnf", "-cert", f"{ca}.pem", "-keyfile", f"{ca}.key", "-revoke", f"{cert_name}.pem"]
    if hold:
        args += ["-crl_hold", "holdInstructionReject"]
    elif reason:
        args += ["-crl_reason", reason]
    run(*args)


def gencrl(ca, out, last=None, nxt=None, cnf=None):
    last = last or G - dt.timedelta(hours=1)
    nxt = nxt or G + dt.timedelta(days=30)
    run("openssl", "ca", "-config", f"{cnf or ca}.cnf", "-cert", f"{ca}.pem", "-keyfile", f"{ca}.key", "-gencrl",
        "-crl_lastupdate", ts(last), "-crl_nextupdate", ts(nxt), "-out", out)


def verify(leaf, untrusted, crls, flags):
    args = ["openssl", "verify", "-attime", str(int(T.timestamp())), "-CAfile", "root.pem"] + flags
    for u in untrusted:
        args += ["-untrusted", u]
    for c in crls:
        args += ["-CRLfile", c]
    args.append(leaf)
    p = run(*args, check=False)
    text = (p.stdout + p.stderr).strip().replace(os.path.join(OUT, ""), "")
    return p.returncode == 0, text


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    cert("root", "Sigil Revocation Root", None, "root")
    cert("int", "Sigil Revocation Intermediate", "root", "ca")
    cert("int2", "Sigil Revoked Intermediate", "root", "ca")
    cert("leaf-good", "good.sigil.test", "int", "leaf")
    cert("leaf-revoked", "revoked.sigil.test", "int", "leaf")
    cert("leaf-hold", "hold.sigil.test", "int", "leaf")
    cert("leaf-delta", "delta.sigil.test", "int", "leaf")
    cert("leaf-int2", "under-revoked-int.sigil.test", "int2", "leaf")
    cert("leaf-unknown", "unknown.sigil.test", "int", "leaf")
    cert("responder", "Sigil OCSP Responder", "int", "responder")
    cert("badresponder", "Sigil Not A Responder", "int", "badresponder")
    # Same subject as `int`, another key: signs the "wrong key" CRL.
    cert("evil-int", "Sigil Revocation Intermediate", "root", "ca")
    # Same subject again, but under a root that is not trusted.
    cert("rogue-root", "Sigil Rogue Root", None, "root")
    cert("rogue-int", "Sigil Revocation Intermediate", "rogue-root", "ca")

    ca_config("root")
    ca_config("int")
    ca_config("int-idp", "issuingDistributionPoint = critical, @idp\n[idp]\nfullname = URI:http://crl.sigil.test/other.crl\n")
    ca_config("int-idp-ok", "issuingDistributionPoint = critical, @idp\n[idp]\nfullname = URI:http://crl.sigil.test/int.crl\nonlyuser = TRUE\n")
    ca_config("evil-int")
    ca_config("int2")
    ca_config("rogue-int")

    # Root CRL: int2 revoked (revoked intermediate).
    revoke("root", "int2", "cACompromise")
    gencrl("root", "root.crl.pem")
    gencrl("int2", "int2.crl.pem")
    # int base CRL: leaf-revoked (keyCompromise), leaf-hold (certificateHold).
    revoke("int", "leaf-revoked", "keyCompromise")
    revoke("int", "leaf-hold", hold=True)
    gencrl("int", "int.crl.pem")
    # Expired: nextUpdate before T.
    gencrl("int", "int-expired.crl.pem", last=G - dt.timedelta(days=10), nxt=G - dt.timedelta(days=1))
    # Scoped by IDP to another distribution point than the leaves'.
    shutil.copy(os.path.join(OUT, "db-int/index.txt"), os.path.join(OUT, "db-int-idp/index.txt"))
    gencrl("int", "int-idp-other.crl.pem", cnf="int-idp")
    shutil.copy(os.path.join(OUT, "db-int/index.txt"), os.path.join(OUT, "db-int-idp-ok/index.txt"))
    gencrl("int", "int-idp-match.crl.pem", cnf="int-idp-ok")
    # Signed by a key that is not the issuer's (same issuer name).
    shutil.copy(os.path.join(OUT, "db-int/index.txt"), os.path.join(OUT, "db-evil-int/index.txt"))
    gencrl("evil-int", "int-wrongkey.crl.pem")
    shutil.copy(os.path.join(OUT, "db-int/index.txt"), os.path.join(OUT, "db-rogue-int/index.txt"))
    gencrl("rogue-int", "int-rogue.crl.pem")
    # Delta: leaf-delta revoked after the base CRL; openssl crl -gendelta diffs two CRLs.
    revoke("int", "leaf-delta", "superseded")
    gencrl("int", "int-newer.crl.pem", last=G - dt.timedelta(minutes=30))
    run("openssl", "crl", "-in", "int.crl.pem", "-gendelta", "int-newer.crl.pem", "-key", "int.key", "-sha256", "-out", "int-delta.crl.pem")
    os.remove(os.path.join(OUT, "int-newer.crl.pem"))
    # certificateHold released: a delta listing leaf-hold with removeFromCRL (cryptography:
    # `openssl crl -gendelta` emits only new entries).
    base = x509.load_pem_x509_crl(open(os.path.join(OUT, "int.crl.pem"), "rb").read())
    base_number = base.extensions.get_extension_for_class(x509.CRLNumber).value.crl_number
    int_cert = x509.load_pem_x509_certificate(open(os.path.join(OUT, "int.pem"), "rb").read())
    int_key = serialization.load_pem_private_key(open(os.path.join(OUT, "int.key"), "rb").read(), None)
    hold_cert = x509.load_pem_x509_certificate(open(os.path.join(OUT, "leaf-hold.pem"), "rb").read())
    b = (x509.CertificateRevocationListBuilder().issuer_name(int_cert.subject)
         .last_update(G - dt.timedelta(minutes=30)).next_update(G + dt.timedelta(days=30))
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(int_key.public_key()), False)
         .add_extension(x509.CRLNumber(base_number + 5), False)
         .add_extension(x509.DeltaCRLIndicator(base_number), True)
         .add_revoked_certificate(x509.RevokedCertificateBuilder().serial_number(hold_cert.serial_number)
                                  .revocation_date(G - dt.timedelta(minutes=30))
                                  .add_extension(x509.CRLReason(x509.ReasonFlags.remove_from_crl), False).build()))
    with open(os.path.join(OUT, "int-delta-unhold.crl.pem"), "wb") as f:
        f.write(b.sign(int_key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM))

    scenarios = []

    def scenario(name, leaf, untrusted, crls, flags, description):
        ok, text = verify(f"{leaf}.pem", [f"{u}.pem" for u in untrusted], crls, flags)
        scenarios.append({"name": name, "leaf": f"{leaf}.pem", "intermediates": [f"{u}.pem" for u in untrusted],
                          "crls": crls, "openssl": " ".join(flags), "trusted": ok, "opensslOutput": text,
                          "description": description})

    all_ = ["-crl_check_all"]
    scenario("good", "leaf-good", ["int"], ["root.crl.pem", "int.crl.pem"], all_, "leaf and intermediate not revoked")
    scenario("revoked-leaf", "leaf-revoked", ["int"], ["root.crl.pem", "int.crl.pem"], all_, "leaf revoked (keyCompromise)")
    scenario("revoked-intermediate", "leaf-int2", ["int2"], ["root.crl.pem", "int2.crl.pem"], ["-crl_check_all"], "intermediate revoked by the root's CRL (cACompromise); the leaf is on no CRL")
    scenario("revoked-intermediate-leaf-only", "leaf-int2", ["int2"], ["root.crl.pem", "int2.crl.pem"], ["-crl_check"], "leaf-only check (-crl_check; Sigil scope leafOnly): the leaf is not revoked")
    scenario("no-crl-for-leaf", "leaf-good", ["int"], ["root.crl.pem"], all_, "no CRL of the leaf's issuer: undetermined (hard fail)")
    scenario("expired-crl", "leaf-good", ["int"], ["root.crl.pem", "int-expired.crl.pem"], all_, "the leaf's CRL is past its nextUpdate")
    scenario("wrong-key-crl", "leaf-good", ["int"], ["root.crl.pem", "int-wrongkey.crl.pem"], all_, "the leaf's CRL is signed by another key with the issuer's name")
    scenario("separate-crl-signer", "leaf-good", ["int", "evil-int"], ["root.crl.pem", "int-wrongkey.crl.pem"], all_ + ["-extended_crl"],
             "the CRL is signed by another certificate of the issuer's name that chains to the same root (RFC 5280 §6.3.3 (f))")
    scenario("separate-crl-signer-revoked", "leaf-revoked", ["int", "evil-int"], ["root.crl.pem", "int-wrongkey.crl.pem"], all_ + ["-extended_crl"],
             "as separate-crl-signer, and that CRL lists the leaf")
    scenario("crl-signer-other-root", "leaf-good", ["int", "rogue-int", "rogue-root"], ["root.crl.pem", "int-rogue.crl.pem"], all_ + ["-extended_crl"],
             "the CRL's signer has the issuer's name but chains to another, untrusted root")
    scenario("idp-scope-mismatch", "leaf-good", ["int"], ["root.crl.pem", "int-idp-other.crl.pem"], all_, "the CRL's issuing distribution point is not the leaf's")
    scenario("idp-scope-match", "leaf-revoked", ["int"], ["root.crl.pem", "int-idp-match.crl.pem"], all_, "IDP matches the leaf's distribution point, onlyContainsUserCerts: leaf revoked")
    scenario("delta-revoked", "leaf-delta", ["int"], ["root.crl.pem", "int.crl.pem", "int-delta.crl.pem"], all_ + ["-use_deltas"], "revoked in the delta CRL only")
    scenario("delta-not-used", "leaf-delta", ["int"], ["root.crl.pem", "int.crl.pem"], all_, "without the delta the base CRL does not list it")
    scenario("hold", "leaf-hold", ["int"], ["root.crl.pem", "int.crl.pem"], all_, "certificateHold on the base CRL")
    scenario("hold-removed", "leaf-hold", ["int"], ["root.crl.pem", "int.crl.pem", "int-delta-unhold.crl.pem"], all_ + ["-use_deltas"], "certificateHold released by removeFromCRL in a delta")

    # OCSP: `openssl ocsp` as responder over the int CA database (leaf-good entered as valid;
    # leaf-unknown is not in it).
    run("openssl", "ca", "-config", "int.cnf", "-cert", "int.pem", "-keyfile", "int.key", "-valid", "leaf-good.pem")
    ocsp = []

    def respond(name, target, signer, signer_key, extra, description, check_leaf=None):
        run("openssl", "ocsp", "-issuer", "int.pem", "-cert", f"{target}.pem", "-no_nonce", "-reqout", f"{name}.req.der")
        run("openssl", "ocsp", "-index", "db-int/index.txt", "-rsigner", f"{signer}.pem", "-rkey", f"{signer_key}.key",
            "-CA", "int.pem", "-reqin", f"{name}.req.der", "-respout", f"{name}.ocsp.der", *extra)
        os.remove(os.path.join(OUT, f"{name}.req.der"))
        text = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-resp_text", "-noverify").stdout
        status = "good" if "Cert Status: good" in text else "revoked" if "Cert Status: revoked" in text else "unknown" if "Cert Status: unknown" in text else "?"
        leaf = check_leaf or target
        v = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-CAfile", "root.pem", "-verify_other", "int.pem",
                "-issuer", "int.pem", "-cert", f"{leaf}.pem", check=False)
        vtext = (v.stdout + v.stderr).strip()
        next_update = None
        for line in text.splitlines():
            if "Next Update:" in line:
                next_update = int(dt.datetime.strptime(line.split("Next Update:")[1].strip(), "%b %d %H:%M:%S %Y %Z").replace(tzinfo=UTC).timestamp())
        first = vtext.splitlines()[0] if vtext else ""
        for_leaf = first.split(": ", 1)[1] if ": " in first else first  # good / revoked / unknown / ERROR: No Status found.
        ocsp.append({"name": name, "response": f"{name}.ocsp.der", "leaf": f"{leaf}.pem", "certStatus": status,
                     "statusForLeaf": for_leaf,
                     "opensslVerify": "Response verify OK" in vtext, "opensslOutput": vtext, "nextUpdate": next_update,
                     "description": description})

    respond("ocsp-good", "leaf-good", "int", "int", ["-ndays", "7"], "signed by the issuer: good")
    respond("ocsp-revoked", "leaf-revoked", "int", "int", ["-ndays", "7"], "signed by the issuer: revoked")
    respond("ocsp-unknown", "leaf-unknown", "int", "int", ["-ndays", "7"], "the leaf is not in the responder's database: unknown")
    respond("ocsp-delegated", "leaf-good", "responder", "responder", ["-ndays", "7"], "delegated responder (id-kp-OCSPSigning, issued by int)")
    respond("ocsp-delegated-revoked", "leaf-revoked", "responder", "responder", ["-ndays", "7"], "delegated responder: revoked")
    respond("ocsp-bad-responder", "leaf-good", "badresponder", "badresponder", ["-ndays", "7"], "signed by a certificate of int without id-kp-OCSPSigning")
    respond("ocsp-wrong-certid", "leaf-good", "int", "int", ["-ndays", "7"], "a response about leaf-good used for leaf-revoked", check_leaf="leaf-revoked")
    respond("ocsp-stale", "leaf-good", "int", "int", ["-nmin", "1"], "nextUpdate one minute after generation; checked at T = G + 1 h")

    for f in os.listdir(OUT):
        if f.endswith(".cnf") or f.startswith("db-") or (f.endswith(".key")):
            p = os.path.join(OUT, f)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"generated": int(G.timestamp()), "verificationTime": int(T.timestamp()),
                   "anchor": "root.pem", "crlScenarios": scenarios, "ocspScenarios": ocsp}, f, indent=1)
    for s in scenarios:
        print(f"{s['name']:32} trusted={s['trusted']}  {s['opensslOutput'].splitlines()[-1][:90]}")
    for o in ocsp:
        print(f"{o['name']:32} {o['certStatus']:8} verify={o['opensslVerify']} next={o['nextUpdate']}")


def sigalg_fixtures():
    """Fixtures/revocation/sigalg/: a root and a leaf it issued (ecdsa-with-SHA256), the root's
    CRL signed with ecdsa-with-SHA256 and with ecdsa-with-SHA384, and OCSP responses for the
    leaf signed by the root with each digest; for the signature algorithm restriction
    (`AlgorithmPolicy.allowedSignatureAlgorithms`, `sigil verify --sig-alg`) applied to
    revocation data. The algorithms and verdicts in its manifest.json are what openssl prints
    (`openssl crl -text`, `openssl verify -crl_check`, `openssl ocsp -resp_text` / `-verify`).
    A PKI of its own, so that `--sigalg-only` can (re)make it without touching the rest."""
    global OUT
    saved, OUT = OUT, os.path.join(OUT, "sigalg")
    try:
        if os.path.exists(OUT):
            shutil.rmtree(OUT)
        os.makedirs(OUT)
        serial_counter[0] = 0x2000
        cert("root", "Sigil SigAlg Root", None, "root")
        cert("leaf", "sigalg.sigil.test", "root", "leaf")
        ca_config("root")
        run("openssl", "ca", "-config", "root.cnf", "-cert", "root.pem", "-keyfile", "root.key", "-valid", "leaf.pem")
        crls, responses = [], []
        for md in ["sha256", "sha384"]:
            out = f"root-{md}.crl.pem"
            run("openssl", "ca", "-config", "root.cnf", "-cert", "root.pem", "-keyfile", "root.key", "-gencrl", "-md", md,
                "-crl_lastupdate", ts(G - dt.timedelta(hours=1)), "-crl_nextupdate", ts(G + dt.timedelta(days=30)), "-out", out)
            text = run("openssl", "crl", "-in", out, "-noout", "-text").stdout
            alg = next(l.split(":", 1)[1].strip() for l in text.splitlines() if "Signature Algorithm:" in l)
            ok, vtext = verify("leaf.pem", [], [out], ["-crl_check"])
            crls.append({"file": out, "signatureAlgorithm": alg, "trusted": ok, "opensslOutput": vtext})
            name = f"ocsp-{md}"
            run("openssl", "ocsp", "-issuer", "root.pem", "-cert", "leaf.pem", "-no_nonce", "-reqout", f"{name}.req.der")
            run("openssl", "ocsp", "-index", "db-root/index.txt", "-rsigner", "root.pem", "-rkey", "root.key", "-rmd", md,
                "-CA", "root.pem", "-reqin", f"{name}.req.der", "-respout", f"{name}.ocsp.der", "-ndays", "7")
            os.remove(os.path.join(OUT, f"{name}.req.der"))
            text = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-resp_text", "-noverify").stdout
            alg = next(l.split(":", 1)[1].strip() for l in text.splitlines() if "Signature Algorithm:" in l)
            v = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-CAfile", "root.pem", "-issuer", "root.pem",
                    "-cert", "leaf.pem", check=False)
            vtext = (v.stdout + v.stderr).strip()
            responses.append({"file": f"{name}.ocsp.der", "signatureAlgorithm": alg,
                              "certStatus": "good" if "Cert Status: good" in text else "?",
                              "opensslVerify": "Response verify OK" in vtext, "opensslOutput": vtext})
        leaf_alg = next(l.split(":", 1)[1].strip() for l in run("openssl", "x509", "-in", "leaf.pem", "-noout", "-text").stdout.splitlines()
                        if "Signature Algorithm:" in l)
        for f in os.listdir(OUT):
            if f.endswith(".cnf") or f.startswith("db-") or f.endswith(".key"):
                p = os.path.join(OUT, f)
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
        with open(os.path.join(OUT, "manifest.json"), "w") as f:
            json.dump({"generated": int(G.timestamp()), "verificationTime": int(T.timestamp()), "anchor": "root.pem",
                       "leaf": "leaf.pem", "leafSignatureAlgorithm": leaf_alg, "crls": crls, "ocspResponses": responses}, f, indent=1)
        for c in crls + responses:
            print(f"sigalg/{c['file']:24} {c['signatureAlgorithm']:20} {c.get('trusted', c.get('opensslVerify'))}")
    finally:
        OUT = saved


def rules_fixtures():
    """Fixtures/revocation/rules/: the CRL rules of RFC 5280 §6.3.3 beyond the direct-CRL cases
    above (issue 21, milestone 3): a separate CRL signer's own revocation status (§6.3.3 (f)),
    distribution points that name a cRLIssuer ((b)(1)), nameRelativeToCRLIssuer names (§4.2.1.13,
    §5.2.5, (b)(2)(i)), IDPs with several names and DPs with only a cRLIssuer ((b)(2)(i)), and a
    CRL signed by a self-issued key-rollover certificate of the CA ((f), §6.1).

    Certificates and CRLs are built with Python `cryptography` (openssl's config language cannot
    write certificateIssuer entries, nameRelativeToCRLIssuer in a certificate with a cRLIssuer,
    nor explicit not-before times); the expected verdict of every scenario is OpenSSL's:
    `openssl verify -attime T -crl_check_all -extended_crl -x509_strict` with the same CRLs.
    A PKI of its own (`--rules-only` remakes only this directory). Manifest: the same shape as
    the main one (crlScenarios), with its own anchor and verification time."""
    global OUT
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    saved, OUT = OUT, os.path.join(OUT, "rules")
    try:
        if os.path.exists(OUT):
            shutil.rmtree(OUT)
        os.makedirs(OUT)
        serial = [0x3000]
        keys = {}

        def dn(cn, ou=None):
            attrs = [x509.NameAttribute(NameOID.COMMON_NAME, cn)]
            n = x509.Name([x509.RelativeDistinguishedName([a]) for a in attrs])
            if ou:
                n = x509.Name(list(n.rdns) + [x509.RelativeDistinguishedName([x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou)])])
            return n

        def uri(u):
            return x509.UniformResourceIdentifier(f"http://crl.sigil.test/{u}")

        def rdn(ou):
            return x509.RelativeDistinguishedName([x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou)])

        def save(name, obj):
            with open(os.path.join(OUT, name), "wb") as f:
                f.write(obj.public_bytes(serialization.Encoding.PEM))

        certs = {}

        def mk(name, subject, issuer, kind, dps=None, key_name=None, issuer_key=None):
            """kind: root, ca, leaf, signer (CA:FALSE, keyUsage cRLSign only)."""
            key_name = key_name or name
            if key_name not in keys:
                keys[key_name] = ec.generate_private_key(ec.SECP256R1())
            k = keys[key_name]
            serial[0] += 1
            ik = keys[issuer_key or issuer] if issuer else k
            iname = certs[issuer].subject if issuer else subject
            b = (x509.CertificateBuilder().subject_name(subject).issuer_name(iname).public_key(k.public_key())
                 .serial_number(serial[0]).not_valid_before(G - dt.timedelta(days=1))
                 .not_valid_after(G + dt.timedelta(days=3650))
                 .add_extension(x509.SubjectKeyIdentifier.from_public_key(k.public_key()), False))
            if issuer or issuer_key:
                b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), False)
            ku = dict(digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False,
                      key_agreement=False, key_cert_sign=False, crl_sign=False, encipher_only=False, decipher_only=False)
            if kind in ("root", "ca"):
                b = b.add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
                ku.update(key_cert_sign=True, crl_sign=True)
            elif kind == "signer":
                b = b.add_extension(x509.BasicConstraints(ca=False, path_length=None), True)
                ku.update(crl_sign=True)
            else:
                b = b.add_extension(x509.BasicConstraints(ca=False, path_length=None), True)
                ku.update(digital_signature=True)
                b = b.add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), False)
            b = b.add_extension(x509.KeyUsage(**ku), True)
            if dps:
                b = b.add_extension(x509.CRLDistributionPoints(dps), False)
            c = b.sign(ik, hashes.SHA256())
            certs[name] = c
            save(f"{name}.pem", c)
            return c

        crl_numbers = [2000]

        def mkcrl(out, signer_key, issuer_name, entries=(), idp=None, last=None):
            """entries: (certificate name, reason, certificateIssuer DN or None)."""
            k = keys[signer_key]
            crl_numbers[0] += 1
            b = (x509.CertificateRevocationListBuilder().issuer_name(issuer_name)
                 .last_update(last or G - dt.timedelta(hours=1)).next_update(G + dt.timedelta(days=30))
                 .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(k.public_key()), False)
                 .add_extension(x509.CRLNumber(crl_numbers[0]), False))
            if idp:
                b = b.add_extension(idp, True)
            for cname, reason, cissuer in entries:
                e = (x509.RevokedCertificateBuilder().serial_number(certs[cname].serial_number)
                     .revocation_date(G - dt.timedelta(hours=2))
                     .add_extension(x509.CRLReason(reason), False))
                if cissuer is not None:
                    e = e.add_extension(x509.CertificateIssuer([x509.DirectoryName(cissuer)]), True)
                b = b.add_revoked_certificate(e.build())
            with open(os.path.join(OUT, out), "wb") as f:
                f.write(b.sign(k, hashes.SHA256()).public_bytes(serialization.Encoding.PEM))

        def idp(full=None, rel=None, indirect=False, only_ca=False, only_user=False):
            return x509.IssuingDistributionPoint(full_name=full, relative_name=rel, only_contains_user_certs=only_user,
                                                 only_contains_ca_certs=only_ca, only_some_reasons=None,
                                                 indirect_crl=indirect, only_contains_attribute_certs=False)

        def dp(full=None, rel=None, crl_issuer=None):
            return x509.DistributionPoint(full_name=full, relative_name=rel, reasons=None, crl_issuer=crl_issuer)

        KC, CAC = x509.ReasonFlags.key_compromise, x509.ReasonFlags.ca_compromise
        root_dp = [dp(full=[uri("root.crl")])]
        int_dp = [dp(full=[uri("int.crl")])]
        mk("root", dn("Sigil Rules Root"), None, "root")
        I = dn("Sigil Rules Intermediate")
        S = dn("Sigil Rules Indirect CRL Issuer")
        mk("int", I, "root", "ca", root_dp)
        # Rule 1: separate CRL signers (§6.3.3 (f)) — one with the issuer's name and another key,
        # one of another name (indirect CRLs); the root's "signers revoked" CRL revokes both.
        mk("int-signer", I, "root", "signer", root_dp)
        mk("indirect-signer", S, "root", "signer", root_dp)
        mk("leaf-good", dn("good.rules.sigil.test"), "int", "leaf", int_dp)
        mk("leaf-revoked", dn("revoked.rules.sigil.test"), "int", "leaf", int_dp)
        ind_dp = [dp(full=[uri("indirect.crl")], crl_issuer=[x509.DirectoryName(S)])]
        mk("leaf-indirect", dn("indirect.rules.sigil.test"), "int", "leaf", ind_dp)
        mk("leaf-indirect-revoked", dn("indirect-revoked.rules.sigil.test"), "int", "leaf", ind_dp)
        # A DP whose cRLIssuer is the certificate issuer itself (§4.2.1.13 says to omit it then).
        mk("leaf-self-crlissuer", dn("self-crlissuer.rules.sigil.test"), "int", "leaf",
           [dp(full=[uri("int.crl")], crl_issuer=[x509.DirectoryName(I)])])
        # Rule 4: a DP with only a cRLIssuer (no distributionPoint name).
        mk("leaf-issuer-only", dn("issuer-only.rules.sigil.test"), "int", "leaf", [dp(crl_issuer=[x509.DirectoryName(S)])])
        # Rule 4: a DP matching the second of the IDP's two names.
        mk("leaf-second-name", dn("second-name.rules.sigil.test"), "int", "leaf", [dp(full=[uri("part-b.crl")])])
        # Rule 3: nameRelativeToCRLIssuer (appended to the certificate's issuer, or to the DP's
        # cRLIssuer when present, §4.2.1.13).
        mk("leaf-rel", dn("relative.rules.sigil.test"), "int", "leaf", [dp(rel=rdn("partition 1"))])
        mk("leaf-rel-revoked", dn("relative-revoked.rules.sigil.test"), "int", "leaf", [dp(rel=rdn("partition 1"))])
        mk("leaf-rel-other", dn("relative-other.rules.sigil.test"), "int", "leaf", [dp(rel=rdn("partition 2"))])
        mk("leaf-full-dn", dn("full-dn.rules.sigil.test"), "int", "leaf",
           [dp(full=[x509.DirectoryName(dn("Sigil Rules Intermediate", "partition 1"))])])
        mk("leaf-rel-indirect", dn("relative-indirect.rules.sigil.test"), "int", "leaf",
           [dp(rel=rdn("partition 9"), crl_issuer=[x509.DirectoryName(S)])])
        # Rule 5: key rollover of a CA: "ro" (old key) issued by the root; "ro-new" is the
        # self-issued certificate of the new key signed with the old one (subject = issuer).
        RO = dn("Sigil Rules Rollover CA")
        mk("ro", RO, "root", "ca", root_dp)
        mk("ro-new", RO, "ro", "ca", None)
        mk("leaf-ro", dn("rollover.rules.sigil.test"), "ro", "leaf", None)
        mk("leaf-ro-revoked", dn("rollover-revoked.rules.sigil.test"), "ro", "leaf", None)

        mkcrl("root.crl.pem", "root", certs["root"].subject)
        mkcrl("root-signers-revoked.crl.pem", "root", certs["root"].subject,
              [("int-signer", KC, None), ("indirect-signer", KC, None)])
        mkcrl("int.crl.pem", "int", I, [("leaf-revoked", KC, None)])
        mkcrl("int-by-signer.crl.pem", "int-signer", I, [("leaf-revoked", KC, None)])
        mkcrl("indirect.crl.pem", "indirect-signer", S,
              [("leaf-indirect-revoked", KC, I), ("leaf-rel-revoked", KC, I)],
              idp=idp(full=[uri("indirect.crl")], indirect=True))
        mkcrl("indirect-issuer-name.crl.pem", "indirect-signer", S, [("leaf-indirect-revoked", KC, I)],
              idp=idp(full=[x509.DirectoryName(S)], indirect=True))
        mkcrl("indirect-not-flagged.crl.pem", "indirect-signer", S, [], idp=idp(full=[uri("indirect.crl")]))
        mkcrl("indirect-rel.crl.pem", "indirect-signer", S, [], idp=idp(rel=rdn("partition 9"), indirect=True))
        mkcrl("int-claims-indirect-dp.crl.pem", "int", I, [], idp=idp(full=[uri("indirect.crl")]))
        mkcrl("int-idp-int.crl.pem", "int", I, [], idp=idp(full=[uri("int.crl")]))
        mkcrl("int-two-names.crl.pem", "int", I, [("leaf-revoked", KC, None)],
              idp=idp(full=[uri("part-a.crl"), uri("part-b.crl")]))
        mkcrl("int-rel.crl.pem", "int", I, [("leaf-rel-revoked", KC, None)], idp=idp(rel=rdn("partition 1")))
        mkcrl("int-full-dn.crl.pem", "int", I, [("leaf-rel-revoked", KC, None)],
              idp=idp(full=[x509.DirectoryName(dn("Sigil Rules Intermediate", "partition 1"))]))
        mkcrl("ro-new.crl.pem", "ro-new", RO, [("leaf-ro-revoked", KC, None)])
        mkcrl("ro-old-ca.crl.pem", "ro", RO, [], idp=idp(only_ca=True))

        scenarios = []
        flags = ["-crl_check_all", "-extended_crl", "-x509_strict"]

        def scenario(name, leaf, untrusted, crls, rule, description):
            ok, text = verify(f"{leaf}.pem", [f"{u}.pem" for u in untrusted], crls, flags)
            scenarios.append({"name": name, "leaf": f"{leaf}.pem", "intermediates": [f"{u}.pem" for u in untrusted],
                              "crls": crls, "openssl": " ".join(flags), "trusted": ok, "opensslOutput": text,
                              "rule": rule, "description": description})

        R, RS = "root.crl.pem", "root-signers-revoked.crl.pem"
        f, b1, b2, r3, r4, r5 = "6.3.3 (f)", "6.3.3 (b)(1)", "6.3.3 (b)(2)(i)", "4.2.1.13, 5.2.5, 6.3.3 (b)(2)(i)", "6.3.3 (b)(2)(i)", "6.1, 6.3.3 (f)"
        scenario("control-direct", "leaf-good", ["int"], [R, "int.crl.pem"], "6.3.3", "the issuer's own CRL, nothing revoked")
        scenario("separate-signer", "leaf-good", ["int", "int-signer"], [R, "int-by-signer.crl.pem"], f,
                 "the CRL is signed by another key of the issuer's name, certified by the root")
        scenario("separate-signer-lists-leaf", "leaf-revoked", ["int", "int-signer"], [R, "int-by-signer.crl.pem"], f,
                 "as separate-signer; that CRL lists the leaf")
        scenario("separate-signer-revoked", "leaf-good", ["int", "int-signer"], [RS, "int-by-signer.crl.pem"], f,
                 "the separate CRL signer's own certificate is revoked by the root's CRL")
        scenario("indirect", "leaf-indirect", ["int", "indirect-signer"], [R, "indirect.crl.pem"], b1,
                 "the DP names cRLIssuer S; S's indirect CRL does not list the leaf")
        scenario("indirect-lists-leaf", "leaf-indirect-revoked", ["int", "indirect-signer"], [R, "indirect.crl.pem"], b1,
                 "S's indirect CRL lists the leaf with certificateIssuer = its issuer")
        scenario("indirect-signer-revoked", "leaf-indirect", ["int", "indirect-signer"], [RS, "indirect.crl.pem"], f,
                 "the indirect CRL issuer's certificate is revoked by the root's CRL")
        scenario("dp-crlissuer-issuer-crl-claims-dp", "leaf-indirect", ["int", "indirect-signer"], [R, "int-claims-indirect-dp.crl.pem"], b1,
                 "the DP names cRLIssuer S; the certificate issuer's own CRL claims that DP's name in its IDP (not indirect, not S)")
        scenario("dp-crlissuer-issuer-crl-no-idp", "leaf-indirect", ["int", "indirect-signer"], [R, "int.crl.pem"], "6.3.3 (b)(1) and its closing paragraph",
                 "the DP names cRLIssuer S; the issuer's own CRL has no IDP: one 'not specified in a distribution point but issued by the certificate issuer'")
        scenario("dp-crlissuer-is-issuer", "leaf-self-crlissuer", ["int"], [R, "int-idp-int.crl.pem"], b1,
                 "the DP names the certificate issuer itself as cRLIssuer (non-conforming, §4.2.1.13); its CRL's IDP is that DP, not indirect")
        scenario("dp-crlissuer-not-indirect", "leaf-indirect", ["int", "indirect-signer"], [R, "indirect-not-flagged.crl.pem"], b1,
                 "the DP names cRLIssuer S; S's CRL has the DP's name but no indirectCRL")
        scenario("dp-crlissuer-no-crl", "leaf-indirect", ["int", "indirect-signer"], [R], b1,
                 "the DP names cRLIssuer S; no CRL at all for it")
        scenario("idp-second-name", "leaf-second-name", ["int"], [R, "int-two-names.crl.pem"], r4,
                 "the CRL's IDP has two fullName URIs; the leaf's DP is the second")
        scenario("dp-issuer-only", "leaf-issuer-only", ["int", "indirect-signer"], [R, "indirect-issuer-name.crl.pem"], r4,
                 "the DP has only cRLIssuer S; S's indirect CRL's IDP is named by S's DN")
        scenario("dp-issuer-only-lists-leaf", "leaf-indirect-revoked", ["int", "indirect-signer"], [R, "indirect-issuer-name.crl.pem"], r4,
                 "a DP with a name (indirect.crl) against an IDP named by S's DN: not the same point")
        scenario("relative-both", "leaf-rel", ["int"], [R, "int-rel.crl.pem"], r3,
                 "DP and IDP both nameRelativeToCRLIssuer OU=partition 1 (relative to the issuer)")
        scenario("relative-both-revoked", "leaf-rel-revoked", ["int"], [R, "int-rel.crl.pem"], r3,
                 "as relative-both; the CRL lists the leaf")
        scenario("relative-other-partition", "leaf-rel-other", ["int"], [R, "int-rel.crl.pem"], r3,
                 "DP OU=partition 2 relative to the issuer; the CRL's IDP is OU=partition 1")
        scenario("relative-dp-full-idp", "leaf-rel-revoked", ["int"], [R, "int-full-dn.crl.pem"], r3,
                 "DP relative (OU=partition 1), IDP fullName directoryName CN=…Intermediate,OU=partition 1; lists the leaf")
        scenario("full-dp-relative-idp", "leaf-full-dn", ["int"], [R, "int-rel.crl.pem"], r3,
                 "DP fullName directoryName CN=…Intermediate,OU=partition 1; IDP relative OU=partition 1")
        scenario("relative-to-crlissuer", "leaf-rel-indirect", ["int", "indirect-signer"], [R, "indirect-rel.crl.pem"], r3,
                 "DP relative OU=partition 9 with cRLIssuer S: names S + OU; S's indirect CRL IDP relative OU=partition 9")
        scenario("rollover-signer", "leaf-ro", ["ro", "ro-new"], [R, "ro-new.crl.pem", "ro-old-ca.crl.pem"], r5,
                 "the CA's CRL is signed by its new key, certified by the self-issued ro-new (old key); the old key's onlyContainsCACerts CRL covers ro-new")
        scenario("rollover-signer-lists-leaf", "leaf-ro-revoked", ["ro", "ro-new"], [R, "ro-new.crl.pem", "ro-old-ca.crl.pem"], r5,
                 "as rollover-signer; the new key's CRL lists the leaf")
        scenario("rollover-signer-circular", "leaf-ro", ["ro", "ro-new"], [R, "ro-new.crl.pem"], f,
                 "as rollover-signer without the old key's CRL: ro-new's status could only come from the CRL it signs")
        scenario("complete-lists-remove", "leaf-revoked", [R, "int-full-40-remove.crl.pem"], "undetermined",
                 "RFC 5280 §5.3.1: removeFromCRL may only appear in delta CRLs; a complete CRL listing the certificate with it neither revokes it nor shows it not revoked (fail closed). OpenSSL's cert_crl reads it as not revoked",
                 "the issuer's complete CRL lists the leaf with reason removeFromCRL")
        with open(os.path.join(OUT, "manifest.json"), "w") as fh:
            json.dump({"generated": int(G.timestamp()), "verificationTime": int(T.timestamp()), "anchor": "root.pem",
                       "crlScenarios": scenarios}, fh, indent=1)
        for s in scenarios:
            print(f"rules/{s['name']:36} trusted={s['trusted']}  {s['opensslOutput'].splitlines()[-1][:100]}")
    finally:
        OUT = saved


class SmallPKI:
    """P-256 certificates made with Python `cryptography` into `out` (the edges and multi sets):
    each `mk` records the key and certificate by name and writes NAME.pem."""

    def __init__(self, out, first_serial):
        from cryptography.hazmat.primitives.asymmetric import ec
        self.ec, self.out, self.serial, self.keys, self.certs = ec, out, first_serial, {}, {}
        if os.path.exists(out):
            shutil.rmtree(out)
        os.makedirs(out)

    @staticmethod
    def dn(cn):
        from cryptography.x509.oid import NameOID
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    def write(self, name, data):
        with open(os.path.join(self.out, name), "wb") as f:
            f.write(data)

    def mk(self, name, cn, issuer, ca, crl_sign=None, ocsp_signing=False, not_after=None, dp=None):
        self.keys[name] = k = self.ec.generate_private_key(self.ec.SECP256R1())
        self.serial += 1
        ik = self.keys[issuer] if issuer else k
        b = (x509.CertificateBuilder().subject_name(self.dn(cn))
             .issuer_name(self.certs[issuer].subject if issuer else self.dn(cn))
             .public_key(k.public_key()).serial_number(self.serial).not_valid_before(G - dt.timedelta(days=10))
             .not_valid_after(not_after or G + dt.timedelta(days=3650))
             .add_extension(x509.SubjectKeyIdentifier.from_public_key(k.public_key()), False)
             .add_extension(x509.BasicConstraints(ca=ca, path_length=None), True)
             .add_extension(x509.KeyUsage(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                                          data_encipherment=False, key_agreement=False, key_cert_sign=ca,
                                          crl_sign=ca if crl_sign is None else crl_sign,
                                          encipher_only=False, decipher_only=False), True))
        if ocsp_signing:
            b = b.add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.OCSP_SIGNING]), False)
        if issuer:
            b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), False)
        if dp:
            b = b.add_extension(x509.CRLDistributionPoints([x509.DistributionPoint(
                full_name=[x509.UniformResourceIdentifier(dp)], relative_name=None, reasons=None,
                crl_issuer=None)]), False)
        self.certs[name] = c = b.sign(ik, hashes.SHA256())
        self.write(f"{name}.pem", c.public_bytes(serialization.Encoding.PEM))


def edges_fixtures():
    """Fixtures/revocation/edges/: several current CRLs of one scope (RFC 5280 §5.2.3: a higher
    cRLNumber supersedes; OpenSSL uses the one with the latest thisUpdate), a certificateHold
    released by the newer CRL (§5.3.1), and the IDP scope limits onlyContainsUserCerts and
    onlySomeReasons (§5.2.5, §6.3.3 (b)(2), (d)), and a CRL not yet valid (§6.3.3 (a)). Built with
    Python `cryptography`; every verdict is `openssl verify -attime T -crl_check_all
    -extended_crl -x509_strict` with the same CRLs, in the order listed (`--edges-only`)."""
    global OUT
    saved, OUT = OUT, os.path.join(OUT, "edges")
    try:
        pki = SmallPKI(OUT, 0x4000)
        keys, certs, mk = pki.keys, pki.certs, pki.mk

        def mkcrl(out, signer, number, entries=(), last=None, idp=None):
            k = keys[signer]
            b = (x509.CertificateRevocationListBuilder().issuer_name(certs[signer].subject)
                 .last_update(last or G - dt.timedelta(hours=1)).next_update(G + dt.timedelta(days=30))
                 .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(k.public_key()), False)
                 .add_extension(x509.CRLNumber(number), False))
            if idp:
                b = b.add_extension(idp, True)
            for cname, reason in entries:
                b = b.add_revoked_certificate(
                    x509.RevokedCertificateBuilder().serial_number(certs[cname].serial_number)
                    .revocation_date(G - dt.timedelta(days=3)).add_extension(x509.CRLReason(reason), False).build())
            with open(os.path.join(OUT, out), "wb") as f:
                f.write(b.sign(k, hashes.SHA256()).public_bytes(serialization.Encoding.PEM))

        def idp(only_user=False, reasons=None):
            return x509.IssuingDistributionPoint(full_name=None, relative_name=None, only_contains_user_certs=only_user,
                                                 only_contains_ca_certs=False, only_some_reasons=reasons,
                                                 indirect_crl=False, only_contains_attribute_certs=False)

        KC, HOLD = x509.ReasonFlags.key_compromise, x509.ReasonFlags.certificate_hold
        mk("root", "Sigil Edges Root", None, True)
        mk("int", "Sigil Edges Intermediate", "root", True)
        mk("leaf-good", "good.edges.sigil.test", "int", False)
        mk("leaf-revoked", "revoked.edges.sigil.test", "int", False)
        mk("leaf-hold", "hold.edges.sigil.test", "int", False)
        # A CA whose keyUsage lacks cRLSign, signing its own CRL (§4.2.1.3, §6.3.3 (f)).
        mk("int-nocrlsign", "Sigil Edges No-cRLSign Intermediate", "root", True, crl_sign=False)
        mk("leaf-nocrlsign", "nocrlsign.edges.sigil.test", "int-nocrlsign", False)
        # OCSP responders (RFC 6960 §4.2.2.2): one issued by the root rather than by the leaf's
        # issuer; one expired; one of the issuer's name issued by another key ("rogue" root).
        mk("responder-from-root", "Sigil Edges Root OCSP Responder", "root", False, ocsp_signing=True)
        mk("responder-expired", "Sigil Edges Expired OCSP Responder", "int", False, ocsp_signing=True,
           not_after=G - dt.timedelta(hours=1))
        mk("responder", "Sigil Edges OCSP Responder", "int", False, ocsp_signing=True)
        mkcrl("root.crl.pem", "root", 1)
        mkcrl("root-user-only.crl.pem", "root", 2, idp=idp(only_user=True))
        # Number 10, two days old, lists nothing but the hold; number 11, an hour old, revokes
        # leaf-revoked and has released the hold. Both are current.
        mkcrl("int-old.crl.pem", "int", 10, [("leaf-hold", HOLD)], last=G - dt.timedelta(days=2))
        mkcrl("int-new.crl.pem", "int", 11, [("leaf-revoked", KC)])
        mkcrl("int-kc-only.crl.pem", "int", 12, idp=idp(reasons=frozenset([KC])))
        mkcrl("int-future.crl.pem", "int", 13, last=G + dt.timedelta(days=1))
        mkcrl("int-nocrlsign.crl.pem", "int-nocrlsign", 1)

        scenarios = []
        flags = ["-crl_check_all", "-extended_crl", "-x509_strict"]

        def scenario(name, leaf, crls, rule, description):
            ok, text = verify(f"{leaf}.pem", ["int.pem"], crls, flags)
            scenarios.append({"name": name, "leaf": f"{leaf}.pem", "intermediates": ["int.pem"], "crls": crls,
                              "openssl": " ".join(flags), "trusted": ok, "opensslOutput": text, "rule": rule,
                              "description": description})

        R, OLD, NEW = "root.crl.pem", "int-old.crl.pem", "int-new.crl.pem"
        scenario("older-crl-listed-first", "leaf-revoked", [R, OLD, NEW], "5.2.3, 6.3.3",
                 "two current CRLs of the issuer; the older (cRLNumber 10) does not list the leaf, the newer (11) does")
        scenario("newer-crl-listed-first", "leaf-revoked", [R, NEW, OLD], "5.2.3, 6.3.3", "as older-crl-listed-first, reversed")
        scenario("hold-released-by-newer", "leaf-hold", [R, OLD, NEW], "5.2.3, 5.3.1",
                 "the older CRL has the leaf on certificateHold, the newer one no longer lists it")
        scenario("hold-in-only-crl", "leaf-hold", [R, OLD], "5.3.1", "only the older CRL: the leaf is on hold")
        scenario("good-both-crls", "leaf-good", [R, OLD, NEW], "6.3.3", "neither CRL lists the leaf")
        scenario("root-crl-user-certs-only", "leaf-good", ["root-user-only.crl.pem", NEW], "5.2.5, 6.3.3 (b)(2)(ii)",
                 "the root's only CRL has onlyContainsUserCerts: the intermediate (a CA) is out of its scope")
        scenario("only-some-reasons", "leaf-good", [R, "int-kc-only.crl.pem"], "5.2.5, 6.3.3 (d)",
                 "the issuer's only CRL covers only keyCompromise: not all reasons")
        scenario("crl-not-yet-valid", "leaf-good", [R, "int-future.crl.pem"], "6.3.3 (a)",
                 "the issuer's only CRL has thisUpdate a day after the verification time")
        ok, text = verify("leaf-nocrlsign.pem", ["int-nocrlsign.pem"], [R, "int-nocrlsign.crl.pem"], flags)
        scenarios.append({"name": "issuer-without-crlsign", "leaf": "leaf-nocrlsign.pem",
                          "intermediates": ["int-nocrlsign.pem"], "crls": [R, "int-nocrlsign.crl.pem"],
                          "openssl": " ".join(flags), "trusted": ok, "opensslOutput": text, "rule": "4.2.1.3, 6.3.3 (f)",
                          "description": "the issuer signs its CRL but its keyUsage lacks cRLSign"})

        # OCSP (RFC 6960 §4.2.2.2, §3.2): Python-built responses, verdicts of `openssl ocsp
        # -respin R -CAfile root.pem -verify_other int.pem -issuer int.pem -cert LEAF` (at the
        # generation time, which every response's times place as they are at T = G + 1 h).
        from cryptography.x509 import ocsp as xocsp
        ocsp = []

        def respond(name, target, signer, status, description, this=None, include=True):
            this = this or G - dt.timedelta(hours=1)
            rev = dict(revocation_time=G - dt.timedelta(days=3), revocation_reason=KC) if status == "revoked" else \
                dict(revocation_time=None, revocation_reason=None)
            st = {"good": xocsp.OCSPCertStatus.GOOD, "revoked": xocsp.OCSPCertStatus.REVOKED}[status]
            b = (xocsp.OCSPResponseBuilder().add_response(cert=certs[target], issuer=certs["int"], algorithm=hashes.SHA1(),
                                                          cert_status=st, this_update=this,
                                                          next_update=this + dt.timedelta(days=7), **rev)
                 .responder_id(xocsp.OCSPResponderEncoding.HASH, certs[signer]))
            if include and signer != "int":
                b = b.certificates([certs[signer]])
            der = b.sign(keys[signer], hashes.SHA256()).public_bytes(serialization.Encoding.DER)
            with open(os.path.join(OUT, f"{name}.ocsp.der"), "wb") as f:
                f.write(der)
            text = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-resp_text", "-noverify").stdout
            cs = "good" if "Cert Status: good" in text else "revoked" if "Cert Status: revoked" in text else "?"
            v = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-CAfile", "root.pem", "-verify_other", "int.pem",
                    "-issuer", "int.pem", "-cert", f"{target}.pem", check=False)
            vtext = (v.stdout + v.stderr).strip()
            first = next((l for l in vtext.splitlines() if l.startswith(f"{target}.pem: ")), "")
            for_leaf = first.split(": ", 1)[1] if first else "?"
            ocsp.append({"name": name, "response": f"{name}.ocsp.der", "leaf": f"{target}.pem", "certStatus": cs,
                         "statusForLeaf": for_leaf,
                         # Signature and responder accepted, and the status times valid.
                         "opensslVerify": "Response verify OK" in vtext and "Status times invalid" not in vtext,
                         "opensslOutput": vtext, "nextUpdate": int((this + dt.timedelta(days=7)).timestamp()),
                         "description": description})

        respond("ocsp-control", "leaf-good", "responder", "good", "delegated responder issued by the issuer (control)")
        respond("ocsp-control-revoked", "leaf-revoked", "responder", "revoked", "as ocsp-control, revoked")
        respond("ocsp-responder-from-root", "leaf-good", "responder-from-root", "good",
                "a responder with id-kp-OCSPSigning issued by the root, not by the leaf's issuer")
        respond("ocsp-responder-expired", "leaf-good", "responder-expired", "good",
                "a delegated responder of the issuer, expired an hour before generation")
        respond("ocsp-future-thisupdate", "leaf-good", "int", "good", "signed by the issuer, thisUpdate a day ahead",
                this=G + dt.timedelta(days=1))
        respond("ocsp-responder-not-included", "leaf-good", "responder", "good",
                "a delegated responder named by key hash but its certificate not included", include=False)
        scenario("complete-lists-remove", "leaf-revoked", [R, "int-full-40-remove.crl.pem"], "undetermined",
                 "RFC 5280 §5.3.1: removeFromCRL may only appear in delta CRLs; a complete CRL listing the certificate with it neither revokes it nor shows it not revoked (fail closed). OpenSSL's cert_crl reads it as not revoked",
                 "the issuer's complete CRL lists the leaf with reason removeFromCRL")
        with open(os.path.join(OUT, "manifest.json"), "w") as fh:
            json.dump({"generated": int(G.timestamp()), "verificationTime": int(T.timestamp()), "anchor": "root.pem",
                       "crlScenarios": scenarios, "ocspScenarios": ocsp}, fh, indent=1)
        for s in scenarios:
            print(f"edges/{s['name']:30} trusted={s['trusted']}  {s['opensslOutput'].splitlines()[-1][:100]}")
        for o in ocsp:
            print(f"edges/{o['name']:30} {o['statusForLeaf']:8} verify={o['opensslVerify']}  {o['opensslOutput'].splitlines()[0][:80]}")
    finally:
        OUT = saved


def der_tlvs(b):
    """The TLVs of DER contents `b` (definite lengths): a list of (tag, whole TLV bytes, contents)."""
    out, i = [], 0
    while i < len(b):
        tag, n = b[i], b[i + 1]
        j = i + 2
        if n & 0x80:
            k = n & 0x7F
            n = int.from_bytes(b[j:j + k], "big")
            j += k
        out.append((tag, b[i:j + n], b[j:j + n]))
        i = j + n
    return out


def der(tag, content):
    n = len(content)
    if n < 0x80:
        return bytes([tag, n]) + content
    ln = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(ln)]) + ln + content


def multi_fixtures():
    """Fixtures/revocation/multi/: answers that disagree with themselves. OCSP responses with
    several SingleResponses for the leaf's CertID (RFC 6960 §4.2.1 allows a sequence; §3.2 and
    §4.2.2.3 say nothing of two answers for one certificate); CRLs without nextUpdate (RFC 5280
    §5.1.2.5: conforming issuers MUST include it), fresh and a month old; and two current complete
    CRLs of one issuer with different scopes (no IDP, and an IDP naming the leaf's distribution
    point / onlyContainsUserCerts), the lower-numbered one listing the leaf (§5.2.3: CRL numbers
    order CRLs of one scope only). The multi-response bodies are spliced by hand from responses
    Python `cryptography` builds (it makes one SingleResponse per response) and re-signed with the
    issuer's key; the CRLs without nextUpdate likewise (cryptography requires one). Each scenario
    records OpenSSL's verdict (`openssl ocsp -resp_text` / `-verify_other`, `openssl verify
    -attime T -crl_check_all -extended_crl -x509_strict`) and Sigil's expected verdict with the rule
    that decides it where the two differ (`--multi-only`)."""
    global OUT
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509 import ocsp as xocsp
    saved, OUT = OUT, os.path.join(OUT, "multi")
    try:
        pki = SmallPKI(OUT, 0x5000)
        keys, certs, write = pki.keys, pki.certs, pki.write
        DP = "http://crl.multi.sigil.test/int.crl"

        def mk(name, cn, issuer, ca):
            pki.mk(name, cn, issuer, ca, dp=DP if issuer == "int" else None)

        def mkcrl(out, signer, number, entries=(), last=None, idp=None, next_update=True, delta_of=None,
                  reason=x509.ReasonFlags.key_compromise):
            k = keys[signer]
            last = last or G - dt.timedelta(hours=1)
            b = (x509.CertificateRevocationListBuilder().issuer_name(certs[signer].subject)
                 .last_update(last).next_update(last + dt.timedelta(days=30))
                 .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(k.public_key()), False)
                 )
            if number is not None:  # None: no cRLNumber (RFC 5280 §5.2.3 MUST), a non-conforming CRL
                b = b.add_extension(x509.CRLNumber(number), False)
            if idp:
                b = b.add_extension(idp, True)
            if delta_of is not None:
                b = b.add_extension(x509.DeltaCRLIndicator(delta_of), True)
            elif number == 30:
                # The base of the delta: freshestCRL (§5.2.6), without which OpenSSL pairs no delta.
                b = b.add_extension(x509.FreshestCRL([x509.DistributionPoint(
                    full_name=[x509.UniformResourceIdentifier(DP + ".delta")], relative_name=None, reasons=None,
                    crl_issuer=None)]), False)
            for cname in entries:
                b = b.add_revoked_certificate(
                    x509.RevokedCertificateBuilder().serial_number(certs[cname].serial_number)
                    .revocation_date(G - dt.timedelta(days=3))
                    .add_extension(x509.CRLReason(reason), False).build())
            crl = b.sign(k, hashes.SHA256())
            if not next_update:
                # TBSCertList: version, signature, issuer, thisUpdate, nextUpdate, ... (§5.1):
                # drop nextUpdate (the fifth element, a UTCTime or GeneralizedTime) and re-sign.
                (_, _, outer), = der_tlvs(crl.public_bytes(serialization.Encoding.DER))
                tbs, alg, _ = der_tlvs(outer)
                fields = der_tlvs(tbs[2])
                assert fields[4][0] in (0x17, 0x18)
                tbs_der = der(0x30, b"".join(f[1] for i, f in enumerate(fields) if i != 4))
                sig = k.sign(tbs_der, ec.ECDSA(hashes.SHA256()))
                write(out, x509.load_der_x509_crl(der(0x30, tbs_der + alg[1] + der(0x03, b"\0" + sig)))
                      .public_bytes(serialization.Encoding.PEM))
            else:
                write(out, crl.public_bytes(serialization.Encoding.PEM))

        mk("root", "Sigil Multi Root", None, True)
        mk("int", "Sigil Multi Intermediate", "root", True)
        mk("leaf-good", "good.multi.sigil.test", "int", False)
        mk("leaf-revoked", "revoked.multi.sigil.test", "int", False)

        # OCSP: responses signed by the issuer with the given SingleResponses, in order.
        def single(target, status, this=None, reason=x509.ReasonFlags.key_compromise):
            this = this or G - dt.timedelta(hours=1)
            st = {"good": xocsp.OCSPCertStatus.GOOD, "revoked": xocsp.OCSPCertStatus.REVOKED,
                  "unknown": xocsp.OCSPCertStatus.UNKNOWN}[status]
            rev = dict(revocation_time=G - dt.timedelta(days=3), revocation_reason=reason) \
                if status == "revoked" else dict(revocation_time=None, revocation_reason=None)
            r = (xocsp.OCSPResponseBuilder().add_response(cert=certs[target], issuer=certs["int"],
                                                           algorithm=hashes.SHA1(), cert_status=st, this_update=this,
                                                           next_update=this + dt.timedelta(days=7), **rev)
                 .responder_id(xocsp.OCSPResponderEncoding.HASH, certs["int"])
                 .sign(keys["int"], hashes.SHA256()).public_bytes(serialization.Encoding.DER))
            # OCSPResponse → responseBytes [0] → ResponseBytes → response OCTET STRING → BasicOCSPResponse.
            (_, _, top), = der_tlvs(r)
            (_, _, rb), = der_tlvs(der_tlvs(top)[1][2])
            (_, _, basic), = der_tlvs(der_tlvs(rb)[1][2])
            tbs, alg = der_tlvs(basic)[:2]
            rid, produced, responses = der_tlvs(tbs[2])[:3]
            (s,) = der_tlvs(responses[2])
            return rid[1], produced[1], s[1], alg[1]

        ocsp = []

        def respond(name, leaf, singles, expected, rule, description):
            parts = [single(*s) for s in singles]
            rid, produced, _, alg = parts[0]
            tbs = der(0x30, rid + produced + der(0x30, b"".join(p[2] for p in parts)))
            sig = keys["int"].sign(tbs, ec.ECDSA(hashes.SHA256()))
            basic = der(0x30, tbs + alg + der(0x03, b"\0" + sig))
            body = der(0x30, der(0x06, bytes.fromhex("2b0601050507300101")) + der(0x04, basic))
            write(f"{name}.ocsp.der", der(0x30, der(0x0A, b"\0") + der(0xA0, body)))
            text = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-resp_text", "-noverify").stdout
            statuses = re.findall(r"Cert Status: (\w+)", text)
            v = run("openssl", "ocsp", "-respin", f"{name}.ocsp.der", "-CAfile", "root.pem", "-verify_other", "int.pem",
                    "-issuer", "int.pem", "-cert", f"{leaf}.pem", check=False)
            vtext = (v.stdout + v.stderr).strip()
            first = next((l for l in vtext.splitlines() if l.startswith(f"{leaf}.pem: ")), "")
            ocsp.append({"name": name, "response": f"{name}.ocsp.der", "leaf": f"{leaf}.pem",
                         "certStatuses": statuses, "opensslStatusForLeaf": first.split(": ", 1)[1] if first else "?",
                         "opensslVerify": "Response verify OK" in vtext, "opensslOutput": vtext,
                         "expected": expected, "rule": rule, "description": description})

        STRICTEST = "RFC 6960 §4.2.1, §3.2; strictest answer wins (revoked > unknown > good), as Chrome's GetRevocationStatusForCert; OpenSSL's OCSP_resp_find_status and Go's ocsp.ParseResponseForCert take the first"
        respond("ocsp-good-good", "leaf-good", [("leaf-good", "good"), ("leaf-good", "good")], "good", "RFC 6960 §3.2",
                "two good answers for the leaf (control)")
        respond("ocsp-good-revoked", "leaf-revoked", [("leaf-revoked", "good"), ("leaf-revoked", "revoked")], "revoked", STRICTEST,
                "good, then revoked, for the same CertID")
        respond("ocsp-revoked-good", "leaf-revoked", [("leaf-revoked", "revoked"), ("leaf-revoked", "good")], "revoked", STRICTEST,
                "revoked, then good, for the same CertID")
        respond("ocsp-good-unknown", "leaf-good", [("leaf-good", "good"), ("leaf-good", "unknown")], "undetermined", STRICTEST,
                "good, then unknown, for the same CertID")
        PERMANENT = "RFC 6960 §2.2: revoked is permanent unless the reason is certificateHold; a signed revocation stays true after its nextUpdate (§3.2 items 4-5 make freshness a condition for good, not for revoked: fail closed), a stale hold may have been released. OpenSSL's -resp_text shows both answers"
        respond("ocsp-stale-revoked-good", "leaf-revoked", [("leaf-revoked", "revoked", G - dt.timedelta(days=30)),
                                            ("leaf-revoked", "good")], "revoked", PERMANENT,
                "revoked (keyCompromise) with nextUpdate three weeks before T, then a fresh good")
        respond("ocsp-stale-hold-good", "leaf-revoked", [("leaf-revoked", "revoked", G - dt.timedelta(days=30),
                                                          x509.ReasonFlags.certificate_hold),
                                                         ("leaf-revoked", "good")], "good", PERMANENT,
                "revoked (certificateHold) with nextUpdate three weeks before T, then a fresh good (the hold released)")
        respond("ocsp-other-then-leaf", "leaf-good", [("leaf-revoked", "revoked"), ("leaf-good", "good")], "good",
                "RFC 6960 §4.1.1: only SingleResponses whose CertID is the leaf's count",
                "revoked for another certificate, then good for the leaf (the first CertID is not the leaf's)")

        # CRLs.
        mkcrl("root.crl.pem", "root", 1)
        mkcrl("int-nonext.crl.pem", "int", 20, next_update=False)
        mkcrl("int-nonext-old.crl.pem", "int", 21, last=G - dt.timedelta(days=30), next_update=False)
        mkcrl("int-nonext-old-revoked.crl.pem", "int", 22, ["leaf-revoked"], last=G - dt.timedelta(days=30),
              next_update=False)
        mkcrl("int-full-5.crl.pem", "int", 5, ["leaf-revoked"])
        mkcrl("int-dp-6.crl.pem", "int", 6, idp=x509.IssuingDistributionPoint(
            full_name=[x509.UniformResourceIdentifier(DP)], relative_name=None, only_contains_user_certs=False,
            only_contains_ca_certs=False, only_some_reasons=None, indirect_crl=False,
            only_contains_attribute_certs=False))
        mkcrl("int-user-6.crl.pem", "int", 6, idp=x509.IssuingDistributionPoint(
            full_name=None, relative_name=None, only_contains_user_certs=True, only_contains_ca_certs=False,
            only_some_reasons=None, indirect_crl=False, only_contains_attribute_certs=False))
        # A delta (number 31 on base 30) listing removeFromCRL for a leaf the base revoked for
        # keyCompromise, and for one the base holds (control).
        mkcrl("int-base-30.crl.pem", "int", 30, ["leaf-revoked"])
        mkcrl("int-delta-31-remove.crl.pem", "int", 31, ["leaf-revoked"], delta_of=30,
              reason=x509.ReasonFlags.remove_from_crl)
        mkcrl("int-base-30-hold.crl.pem", "int", 30, ["leaf-revoked"], reason=x509.ReasonFlags.certificate_hold)
        # A complete CRL (no deltaCRLIndicator) listing the leaf with removeFromCRL (§5.3.1: delta CRLs only).
        mkcrl("int-full-40-remove.crl.pem", "int", 40, ["leaf-revoked"], reason=x509.ReasonFlags.remove_from_crl)
        # CRLs that list the leaf but cannot show anything not revoked: stale, not yet valid, no cRLNumber.
        mkcrl("int-stale-50.crl.pem", "int", 50, ["leaf-revoked"], last=G - dt.timedelta(days=60))
        mkcrl("int-stale-51-hold.crl.pem", "int", 51, ["leaf-revoked"], last=G - dt.timedelta(days=60),
              reason=x509.ReasonFlags.certificate_hold)
        mkcrl("int-future-52.crl.pem", "int", 52, ["leaf-revoked"], last=T + dt.timedelta(days=1))
        mkcrl("int-nonumber.crl.pem", "int", None, ["leaf-revoked"])
        mkcrl("int-nonumber-hold.crl.pem", "int", None, ["leaf-revoked"], reason=x509.ReasonFlags.certificate_hold)
        mkcrl("int-nonumber-empty.crl.pem", "int", None)
        scenarios = []
        flags = ["-crl_check_all", "-extended_crl", "-x509_strict"]

        def scenario(name, leaf, crls, expected, rule, description, extra=()):
            ok, text = verify(f"{leaf}.pem", ["int.pem"], crls, flags + list(extra))
            scenarios.append({"name": name, "leaf": f"{leaf}.pem", "intermediates": ["int.pem"], "crls": crls,
                              "openssl": " ".join(flags + list(extra)), "trusted": ok, "opensslOutput": text,
                              "expected": expected, "rule": rule, "description": description})

        R = "root.crl.pem"
        AGE = "RFC 5280 §5.1.2.5 (nextUpdate MUST be present); without it a CRL says good only while its thisUpdate is at most maximumCRLAgeWithoutNextUpdate (7 days, CA/B BR §4.9.7) old, as Chrome bounds every CRL's age; its entries still revoke. OpenSSL sets no age limit"
        scenario("no-nextupdate-fresh", "leaf-good", [R, "int-nonext.crl.pem"], "trusted", AGE,
                 "the issuer's CRL has no nextUpdate, thisUpdate an hour before generation")
        scenario("no-nextupdate-old", "leaf-good", [R, "int-nonext-old.crl.pem"], "undetermined", AGE,
                 "the issuer's CRL has no nextUpdate, thisUpdate 30 days before generation")
        scenario("no-nextupdate-old-revoked", "leaf-revoked", [R, "int-nonext-old-revoked.crl.pem"], "revoked", AGE,
                 "as no-nextupdate-old, listing the leaf")
        SCOPES = "RFC 5280 §5.2.3: CRL numbers order the CRLs of one scope; a current CRL of another scope that lists the certificate is not superseded (§6.3.3 (j)); OpenSSL picks one CRL by scope score and thisUpdate"
        scenario("two-scopes-dp", "leaf-revoked", [R, "int-full-5.crl.pem", "int-dp-6.crl.pem"], "revoked", SCOPES,
                 "the issuer's full CRL (number 5) lists the leaf; its CRL for the leaf's distribution point (6) does not")
        scenario("two-scopes-dp-reversed", "leaf-revoked", [R, "int-dp-6.crl.pem", "int-full-5.crl.pem"], "revoked",
                 SCOPES, "as two-scopes-dp, listed the other way round")
        scenario("two-scopes-user", "leaf-revoked", [R, "int-full-5.crl.pem", "int-user-6.crl.pem"], "revoked", SCOPES,
                 "the issuer's full CRL (5) lists the leaf; its onlyContainsUserCerts CRL (6) does not")
        scenario("two-scopes-good", "leaf-good", [R, "int-full-5.crl.pem", "int-dp-6.crl.pem"], "trusted", SCOPES,
                 "neither lists the leaf (control)")
        REMOVE = "RFC 5280 §5.3.1: removeFromCRL marks a certificate removed because it expired or was released from hold; a certificate the base revoked for another reason and valid at T stays revoked. OpenSSL skips the base CRL after a removeFromCRL in the delta"
        scenario("delta-removes-revoked", "leaf-revoked", [R, "int-base-30.crl.pem", "int-delta-31-remove.crl.pem"],
                 "revoked", REMOVE, "the base CRL revokes the leaf (keyCompromise); its delta says removeFromCRL",
                 extra=["-use_deltas"])
        scenario("delta-releases-hold", "leaf-revoked",
                 [R, "int-base-30-hold.crl.pem", "int-delta-31-remove.crl.pem"], "trusted", REMOVE,
                 "the base CRL holds the leaf (certificateHold); its delta says removeFromCRL (control)",
                 extra=["-use_deltas"])
        scenario("complete-lists-remove", "leaf-revoked", [R, "int-full-40-remove.crl.pem"], "undetermined",
                 "RFC 5280 §5.3.1: removeFromCRL may only appear in delta CRLs; a complete CRL listing the certificate with it neither revokes it nor shows it not revoked (fail closed). OpenSSL's cert_crl reads it as not revoked",
                 "the issuer's complete CRL lists the leaf with reason removeFromCRL")
        LISTED = "RFC 5280 §3.3: an entry MUST NOT be removed before the certificate's validity ends; RFC 6960 §2.2: revocation is permanent unless certificateHold. A correctly signed CRL in scope that is not current (§6.3.3 (a)) or lacks its cRLNumber (§5.2.3) shows nothing not revoked, but what it lists is revoked (a hold only while the CRL is current). OpenSSL's verdict is recorded beside it"
        scenario("stale-revoked", "leaf-revoked", [R, "int-stale-50.crl.pem"], "revoked", LISTED,
                 "the issuer's only CRL is stale (nextUpdate 30 days before T) and lists the leaf (keyCompromise)")
        scenario("stale-hold", "leaf-revoked", [R, "int-stale-51-hold.crl.pem"], "undetermined", LISTED,
                 "the issuer's only CRL is stale and lists the leaf with certificateHold (may have been released)")
        scenario("stale-good", "leaf-good", [R, "int-stale-50.crl.pem"], "undetermined", LISTED,
                 "the issuer's only CRL is stale and does not list the leaf (control)")
        scenario("future-revoked", "leaf-revoked", [R, "int-future-52.crl.pem"], "revoked", LISTED,
                 "the issuer's only CRL has thisUpdate a day after T and lists the leaf")
        scenario("no-number-revoked", "leaf-revoked", [R, "int-nonumber.crl.pem"], "revoked", LISTED,
                 "the issuer's current CRL has no cRLNumber and lists the leaf (keyCompromise)")
        scenario("no-number-hold", "leaf-revoked", [R, "int-nonumber-hold.crl.pem"], "revoked", LISTED,
                 "the issuer's current CRL has no cRLNumber and lists the leaf with certificateHold")
        scenario("no-number-good", "leaf-good", [R, "int-nonumber-empty.crl.pem"], "undetermined", LISTED,
                 "the issuer's current CRL has no cRLNumber and lists nothing (control)")
        scenario("dp-crl-beside-stale-hold", "leaf-revoked", [R, "int-stale-51-hold.crl.pem", "int-dp-6.crl.pem"],
                 "trusted", LISTED + "; a current CRL of another scope covering the leaf decides",
                 "a stale CRL holds the leaf; a current CRL for the leaf's distribution point does not list it")
        with open(os.path.join(OUT, "manifest.json"), "w") as fh:
            json.dump({"generated": int(G.timestamp()), "verificationTime": int(T.timestamp()), "anchor": "root.pem",
                       "crlScenarios": scenarios, "ocspScenarios": ocsp}, fh, indent=1)
        for s in scenarios:
            print(f"multi/{s['name']:28} expected={s['expected']:12} openssl trusted={s['trusted']}  "
                  f"{s['opensslOutput'].splitlines()[-1][:90]}")
        for o in ocsp:
            print(f"multi/{o['name']:28} expected={o['expected']:12} openssl={o['opensslStatusForLeaf']:8} "
                  f"{o['certStatuses']} verify={o['opensslVerify']}")
    finally:
        OUT = saved


if __name__ == "__main__":
    if sys.argv[1:] == ["--sigalg-only"]:
        sigalg_fixtures()
    elif sys.argv[1:] == ["--rules-only"]:
        rules_fixtures()
    elif sys.argv[1:] == ["--edges-only"]:
        edges_fixtures()
    elif sys.argv[1:] == ["--multi-only"]:
        multi_fixtures()
    else:
        main()
        sigalg_fixtures()
        rules_fixtures()
        edges_fixtures()
        multi_fixtures()
