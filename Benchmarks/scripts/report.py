#!/usr/bin/env python3
"""Turns package-benchmark JMH exports (+ the Go peer's JSON, + SigilMemory output) into
Benchmarks/RESULTS.md and Benchmarks/results.json.

Usage: report.py OUT.md MAIN_JMH_DIR MASKED_JMH_DIR_OR_- MEMORY_TXT_OR_- META_TXT [GO_JSON_OR_-]

Benchmark names are <Operation>_<Library>; rows are grouped by operation and every peer's
median is divided by Sigil's (ratio > 1: Sigil is faster). Generated: never edit RESULTS.md.

results.json (beside OUT.md) keeps every number with the run it comes from. A run of a subset
(`run.sh --filter ...`) replaces whole operations — Sigil and all its peers together — and
keeps the other operations from the runs that measured them, so every ratio in RESULTS.md
still compares numbers from one run; RESULTS.md names the run of each row.
"""
import glob, json, os, re, sys

out_path, main_dir, masked_dir, memory_path, meta_path = sys.argv[1:6]
go_path = sys.argv[6] if len(sys.argv) > 6 else "-"
store_path = os.path.join(os.path.dirname(os.path.abspath(out_path)), "results.json")

def load(directory):
    results = {}
    if directory == "-" or not os.path.isdir(directory):
        return results
    for path in glob.glob(os.path.join(directory, "**", "*.json"), recursive=True):
        try:
            elements = json.load(open(path))
        except Exception:
            continue
        if isinstance(elements, dict):
            elements = [elements]
        for e in elements:
            name = e["benchmark"].split(".")[-1]
            secondary = e.get("secondaryMetrics", {})
            time = mallocs = None
            for metric, value in secondary.items():
                if metric.startswith("Time (wall clock)"):
                    time = value["scorePercentiles"]["50.0"]  # microseconds
                elif metric.startswith("Malloc (total)"):
                    mallocs = value["scorePercentiles"]["50.0"]
            results[name] = {"us": time, "mallocs": mallocs,
                             "n": e.get("measurementIterations")}
    return results

def load_go(path):
    """The Go peer (Benchmarks/go): median ns/op and Go heap allocations per operation."""
    if path == "-" or not os.path.exists(path):
        return {}, None
    doc = json.load(open(path))
    return ({r["name"]: {"us": r["nsPerOp"] / 1000.0, "mallocs": r["allocsPerOp"], "n": r["iterations"]}
             for r in doc.get("results", [])}, doc.get("go"))

main = load(main_dir)
masked = load(masked_dir)
go_results, go_version = load_go(go_path)
# Go's rows join only the operations Sigil measured in this run (a filtered run measures a subset).
sigil_ops = {n.rpartition("_")[0] for n in main}
for name, r in go_results.items():
    if name.rpartition("_")[0] in sigil_ops:
        main[name] = r
meta = open(meta_path).read().strip().splitlines() if os.path.exists(meta_path) else []
if go_version and any(n.endswith("_Go") for n in main):
    meta.append(f"Go peer: {go_version}, `Benchmarks/go` (crypto/x509, crypto/ed25519; standard library only)")
memory_lines = [l.rstrip("\n") for l in open(memory_path) if l.startswith("memory ")] \
    if memory_path != "-" and os.path.exists(memory_path) else []

# ---- the store: every number with its run ----------------------------------------------
def run_id(meta_lines):
    for m in meta_lines:
        if m.startswith("Date: "):
            return m[len("Date: "):]
    return "unknown"

def parse_time(text):
    m = re.match(r"([0-9.]+) (ns|µs|ms)$", text.strip())
    if not m:
        return None
    v = float(m.group(1))
    return {"ns": v / 1000.0, "µs": v, "ms": v * 1000.0}[m.group(2)]

def import_legacy(md_path):
    """RESULTS.md written before results.json existed: its tables become the first run."""
    text = open(md_path).read()
    lines = text.splitlines()
    legacy_meta = []
    for l in lines:
        if l.startswith("- ") and ":" in l and l[2:].split(":")[0] in (
                "Date", "CPU", "Load average (1/5/15 min) at start of the main run", "Toolchain", "OpenSSL", "Sigil", "Fixtures"):
            legacy_meta.append(l[2:])
        if l.startswith("## "):
            if legacy_meta:
                break
    rid = run_id(legacy_meta)
    title_to_lib = {v: k for k, v in LIB_TITLE.items()}
    benchmarks, masked_old, memory_old = {}, {}, []
    total_der = re.search(r"Total DER size of the bundle: ([0-9.]+) KiB", text)
    section = None
    op = None
    for l in lines:
        if l.startswith("## "):
            section = l[3:]
            continue
        cells = [c.strip() for c in l.strip().strip("|").split("|")] if l.startswith("|") else None
        if not cells or set(cells[0]) <= set("-:") and cells[0] != "":
            continue
        if section and section.startswith("SHA-256 with OpenSSL's SHA-NI code masked") and len(cells) == 6 \
                and cells[0] in ("64B", "1KiB", "16KiB"):
            for lib, text in (("SigilPortable", cells[1]), ("OpenSSL", cells[2]), ("OpenSSLLowLevel", cells[3])):
                us = parse_time(text)
                if us is not None:
                    masked_old[f"SHA256_{cells[0]}_{lib}"] = {"us": us, "mallocs": None, "n": None}
        elif section and section.startswith("Memory of the loaded system bundle") and len(cells) == 5 \
                and cells[0] in title_to_lib:
            kib = float(cells[1].split()[0])
            count = int(cells[2])
            ratio = float(cells[4].rstrip("×"))
            retained = round(kib * 1024)
            der = round(float(total_der.group(1)) * 1024) if total_der else round(retained / ratio)
            memory_old.append(f"memory {title_to_lib[cells[0]]} {retained} {count} {der}")
        elif len(cells) == 5 and cells[1] in title_to_lib:
            if cells[0]:
                op = cells[0].strip("`").split("`")[0]
            us = parse_time(cells[2])
            mallocs = None if cells[3] in ("–", "") else float(cells[3])
            if us is not None and op:
                benchmarks[f"{op}_{title_to_lib[cells[1]]}"] = {"us": us, "mallocs": mallocs, "n": None, "run": rid}
    return {"runs": {rid: legacy_meta}, "benchmarks": benchmarks,
            "masked": {"run": rid, "benchmarks": masked_old} if masked_old else None,
            "memory": {"run": rid, "lines": memory_old} if memory_old else None}


def fmt_time(us):
    if us is None:
        return "–"
    if us >= 1000:
        return f"{us / 1000:.2f} ms"
    if us >= 1:
        return f"{us:.2f} µs"
    return f"{us * 1000:.0f} ns"

def fmt_count(n):
    return "–" if n is None else f"{int(round(n))}"

LIB_ORDER = ["Sigil", "SigilSHANI", "SigilPortable", "SwiftCertificates", "SwiftCrypto", "OpenSSL",
             "OpenSSLEVP", "OpenSSLLowLevel", "Go"]
LIB_TITLE = {"Sigil": "Sigil", "SigilSHANI": "Sigil (SHA-NI engine)",
             "SigilPortable": "Sigil (portable engine)",
             "SwiftCertificates": "swift-certificates", "SwiftCrypto": "swift-crypto (BoringSSL)",
             "OpenSSL": "OpenSSL", "OpenSSLEVP": "OpenSSL (`EVP_DigestVerify`)",
             "OpenSSLLowLevel": "OpenSSL (`SHA256_Init/Update/Final`)", "Go": "Go `crypto/x509`"}

if os.path.exists(store_path):
    store = json.load(open(store_path))
elif os.path.exists(out_path):
    store = import_legacy(out_path)
else:
    store = {"runs": {}, "benchmarks": {}, "masked": None, "memory": None}

this_run = run_id(meta)
measured_ops = {n.rpartition("_")[0] for n in main}
# A full run (run.sh without arguments sets REPORT_FULL_RUN=1) replaces everything: benchmarks
# that no longer exist do not linger from older runs.
full_run = os.environ.get("REPORT_FULL_RUN") == "1" and bool(main)
benchmarks = {} if full_run else \
    {n: r for n, r in store["benchmarks"].items() if n.rpartition("_")[0] not in measured_ops}
for n, r in main.items():
    benchmarks[n] = dict(r, run=this_run)
if masked:
    store["masked"] = {"run": this_run, "benchmarks": masked}
if memory_lines:
    store["memory"] = {"run": this_run, "lines": memory_lines}
store["runs"][this_run] = meta
used_runs = {r["run"] for r in benchmarks.values()}
for part in ("masked", "memory"):
    if store.get(part):
        used_runs.add(store[part]["run"])
store["runs"] = {k: v for k, v in store["runs"].items() if k in used_runs}
store["benchmarks"] = dict(sorted(benchmarks.items()))
with open(store_path, "w") as f:
    json.dump(store, f, indent=1, ensure_ascii=False)
    f.write("\n")

# From here on, "main" is the merged view and "masked"/memory the latest measured.
main = store["benchmarks"]
masked = store["masked"]["benchmarks"] if store.get("masked") else {}
memory_lines = store["memory"]["lines"] if store.get("memory") else []
run_order = sorted(store["runs"], reverse=True)  # "YYYY-MM-DD HH:MM UTC": newest first
run_label = {rid: f"R{i + 1}" for i, rid in enumerate(run_order)}

groups = {}
for name, r in main.items():
    op, _, lib = name.rpartition("_")
    groups.setdefault(op, {})[lib] = r

SECTIONS = [
    ("Parsing", ["ParseLeaf", "ParseWalkLeaf", "ParseDecodeExtensions", "ParseSystemRoots", "PEMDecodeBundle", "LoadBundleAnchors"]),
    ("One signature (leaf signed by its intermediate)",
     ["VerifySignatureRSA2048", "VerifySignatureRSA4096", "VerifySignatureP256",
      "VerifySignatureP384", "VerifySignatureP521", "VerifySignatureEd25519", "VerifySignatureEd448",
      "VerifyEd25519_1KiB", "VerifyEd448_1KiB"]),
    ("SHA-256 (OpenSSL with its SHA-NI code; one-shot `SHA256()` and the low-level API)",
     ["SHA256_64B", "SHA256_1KiB", "SHA256_16KiB"]),
    ("Chain validation with host name (3 certificates, root trusted)",
     ["ChainParseRSA2048", "ChainPreparsedRSA2048", "TrustLayerRSA2048", "ChainParseP256", "ChainPreparsedP256",
      "TrustLayerP256", "ChainParseP384", "ChainPreparsedP384", "TrustLayerP384",
      "ChainParseEd25519", "ChainPreparsedEd25519", "TrustLayerEd25519"]),
    ("Path building (cross-signed dead end + N unrelated intermediates + the real one, pre-parsed)",
     ["PathBuildPool0", "PathBuildPool100", "PathBuildPool1000"]),
    ("CRLs (synthetic, 1 000 000 entries, ≈ 50 MB, generated at setup)",
     ["CRLLoad1M", "CRLLookup1M"]),
]
DESCRIPTION = {
    "CRLLoad1M": "DER → usable CRL: Sigil validates every entry and builds a sorted array of entry "
                 "offsets and one of packed serial keys (12 B/entry); OpenSSL `d2i_X509_CRL` (one object per entry)",
    "CRLLookup1M": "one serial lookup (half listed, half not): Sigil `firstEntry` (what the revocation checker "
                   "calls), a binary search over packed serial keys; "
                   "OpenSSL `X509_CRL_get0_by_serial` (sorted on first use)",
    "ParseLeaf": "parse the RSA-2048 fixture leaf (2 010 B, 12 extensions)",
    "ParseWalkLeaf": "parse + read every field + decode every extension the library knows",
    "ParseDecodeExtensions": "parse + decode the usual extension set (AIA, SKI, AKI, EKU, BC, KU, SAN) and iterate its lists",
    "ParseSystemRoots": "parse each certificate of the system bundle (DER, all of them)",
    "PEMDecodeBundle": "PEM → DER for the whole system bundle",
    "LoadBundleAnchors": "system bundle bytes → trust store (Sigil `TrustStore.add(contentsOf:)`, "
                         "swift-certificates PEM → `Certificate` → `CertificateStore`, OpenSSL `X509_STORE`)",
    "ChainParseRSA2048": "parse leaf + intermediate, then validate",
    "ChainParseP256": "parse leaf + intermediate, then validate",
    "ChainParseP384": "parse leaf + intermediate, then validate",
    "ChainPreparsedRSA2048": "validate pre-parsed certificates",
    "ChainPreparsedP256": "validate pre-parsed certificates",
    "ChainPreparsedP384": "validate pre-parsed certificates",
    "TrustLayerRSA2048": "the trust layer alone: `ChainParse` with a signature verifier that only records "
                         "the calls (2 signatures, 1 leaf-key check) and answers valid",
    "TrustLayerP256": "as `TrustLayerRSA2048`, P-256 chain",
    "TrustLayerP384": "as `TrustLayerRSA2048`, P-384 chain",
    "VerifySignatureEd25519": "the Ed25519 fixture leaf (Fixtures/eddsa, TBS 416 B) with its intermediate's key: "
                              "Sigil `CertificateSignature.verify`, swift-certificates (swift-crypto → BoringSSL), "
                              "OpenSSL `X509_verify` and `EVP_DigestVerify` over the TBS alone, Go `CheckSignatureFrom`",
    "VerifySignatureEd448": "as `VerifySignatureEd25519`, Ed448 chain (swift-crypto and Go have no Ed448)",
    "VerifyEd25519_1KiB": "the primitive alone over a 1 024-byte message (an OpenSSL-made signature of "
                          "Fixtures/eddsa/signatures.json): Sigil `Ed25519.verify`, swift-crypto "
                          "`Curve25519.Signing.PublicKey.isValidSignature` (BoringSSL), OpenSSL `EVP_DigestVerify` "
                          "(context made and freed per call), Go `ed25519.Verify`",
    "VerifyEd448_1KiB": "as `VerifyEd25519_1KiB`, Ed448 (Sigil `Ed448.verify`, OpenSSL `EVP_DigestVerify`)",
    "ChainParseEd25519": "Ed25519 root → intermediate → leaf (Fixtures/eddsa/ed25519), host "
                         "`leaf.ed25519.sigil.test`: parse leaf + intermediate, then validate",
    "ChainPreparsedEd25519": "validate pre-parsed certificates",
    "TrustLayerEd25519": "as `TrustLayerRSA2048`, Ed25519 chain",
}
for _fam in ("RSA2048", "P256", "P384"):
    DESCRIPTION[f"ChainParse{_fam}"] += "; Go: `x509.ParseCertificate` ×2, a `CertPool` of the intermediate, `Verify`"
    DESCRIPTION[f"ChainPreparsed{_fam}"] += "; Go: `Verify` with pools made once"

def reference(libs):
    for candidate in ("Sigil", "SigilSHANI"):
        if candidate in libs and libs[candidate]["us"]:
            return candidate
    return None

lines = ["# Sigil benchmark results", "",
         "Generated by `Benchmarks/run.sh` — do not edit by hand.", ""]
if len(run_order) == 1:
    lines += [f"- {m}" for m in store["runs"][run_order[0]]]
else:
    lines += ["Rows come from more than one run (`run.sh --filter` measures a subset): each operation "
              "— Sigil and every peer of it — comes from one run, named after the operation; ratios "
              "never mix runs.", ""]
    for rid in run_order:
        lines += [f"**{run_label[rid]}**", ""] + [f"- {m}" for m in store["runs"][rid]] + [""]
lines += ["", "Median wall-clock time per operation and median heap allocations per operation "
          "(package-benchmark `mallocCountTotal`; for the Go peer, Go heap allocations per operation "
          "from `runtime.MemStats`). *peer/Sigil* is the peer's median time divided "
          "by Sigil's: above 1 means Sigil is faster.", ""]

lines += ["How to read these numbers (see `Benchmarks/README.md` for the setup):", "",
          "- The machine is shared (2 cores, other builds running): medians move by ~10 % between "
          "runs; allocation counts are exact and stable.",
          "- OpenSSL is 3.0: its `d2i_X509` decodes the public key through the provider decoder "
          "framework (~1 500 allocations per certificate), which dominates every OpenSSL "
          "\"parse included\" figure; pre-parsed OpenSSL reuses cached decodings.",
          "- The \"walk\" decodes what each library can decode: Sigil also decodes certificate "
          "policies (with qualifiers), CRL distribution points, freshest CRL and SCTs, which "
          "swift-certificates has no decoder for.",
          "- Chain goal \"≥ 2× swift-certificates (pre-parsed)\" is read as Sigil pre-parsed vs "
          "swift-certificates pre-parsed.",
          "- Go `crypto/x509` runs in its own process right after the Swift benchmarks of the same "
          "`run.sh` (not interleaved with them): its ratios compare numbers a few minutes apart, "
          "so on a busy machine they carry the load's drift too. Its allocation counts are Go heap "
          "objects (`runtime.MemStats.Mallocs`), not malloc calls.", ""]

used = set()
for title, ops in SECTIONS:
    if not any(groups.get(op) for op in ops):
        continue  # not in this run (e.g. `run.sh --filter ...`)
    lines += [f"## {title}", ""]
    lines += ["| benchmark | library | median | allocations | peer/Sigil |", "|---|---|---:|---:|---:|"]
    for op in ops:
        libs = groups.get(op)
        if not libs:
            continue
        used.add(op)
        ref = reference(libs)
        first = True
        for lib in LIB_ORDER:
            if lib not in libs:
                continue
            r = libs[lib]
            ratio = ""
            if ref and lib != ref and r["us"]:
                ratio = f"{r['us'] / libs[ref]['us']:.2f}×"
            label = ""
            if first:
                label = f"`{op}`"
                if len(run_order) > 1:
                    label += f" ({run_label[r['run']]})"
            first = False
            lines.append(f"| {label} | {LIB_TITLE.get(lib, lib)} | {fmt_time(r['us'])} | {fmt_count(r['mallocs'])} | {ratio} |")
    notes = [f"`{op}`: {DESCRIPTION[op]}" for op in ops if op in DESCRIPTION and op in used]
    if notes:
        lines += [""] + [f"- {n}" for n in notes]
    lines.append("")

rest = sorted(set(groups) - used)
if rest:
    lines += ["## Other", "", "| benchmark | library | median | allocations |", "|---|---|---:|---:|"]
    for op in rest:
        for lib, r in sorted(groups[op].items()):
            lines.append(f"| `{op}` | {lib} | {fmt_time(r['us'])} | {fmt_count(r['mallocs'])} |")
    lines.append("")

# SHA-NI masked run: portable engine against OpenSSL without its SHA extensions code.
if masked:
    masked_title = "## SHA-256 with OpenSSL's SHA-NI code masked (`OPENSSL_ia32cap=\":~0x20000000\"`)"
    if len(run_order) > 1:
        masked_title += f" ({run_label[store['masked']['run']]})"
    lines += [masked_title, "",
              "Sigil's portable engine against OpenSSL's non-SHA-NI assembly (the faster of its two APIs).", "",
              "| size | Sigil portable | OpenSSL masked `SHA256()` | OpenSSL masked low-level | OpenSSL (SHA-NI, main run, best) | OpenSSL masked best / Sigil portable |",
              "|---|---:|---:|---:|---:|---:|"]
    for size in ["64B", "1KiB", "16KiB"]:
        sp = masked.get(f"SHA256_{size}_SigilPortable", {}).get("us")
        om = masked.get(f"SHA256_{size}_OpenSSL", {}).get("us")
        ol = masked.get(f"SHA256_{size}_OpenSSLLowLevel", {}).get("us")
        best = min([x for x in (om, ol) if x] or [None]) if (om or ol) else None
        on = [x for x in (main.get(f"SHA256_{size}_OpenSSL", {}).get("us"),
                          main.get(f"SHA256_{size}_OpenSSLLowLevel", {}).get("us")) if x]
        ratio = f"{best / sp:.2f}×" if sp and best else "–"
        lines.append(f"| {size} | {fmt_time(sp)} | {fmt_time(om)} | {fmt_time(ol)} | {fmt_time(min(on) if on else None)} | {ratio} |")
    om16 = masked.get("SHA256_16KiB_OpenSSL", {}).get("us")
    on16 = main.get("SHA256_16KiB_OpenSSL", {}).get("us")
    if om16 and on16:
        effective = om16 / on16 > 1.3
        lines += ["", f"Masking {'took effect' if effective else 'did NOT visibly take effect'}: OpenSSL at 16 KiB "
                  f"{fmt_time(on16)} with SHA-NI vs {fmt_time(om16)} masked ({om16 / on16:.2f}×)."]
    lines.append("")

# Memory of the loaded bundle.
if memory_lines:
    mem = [l.split() for l in memory_lines]
    if mem:
        title = "## Memory of the loaded system bundle"
        if len(run_order) > 1:
            title += f" ({run_label[store['memory']['run']]})"
        lines += [title, "",
                  "Heap retained by the trust store built from the bundle (glibc `mallinfo2().uordblks` "
                  "before/after; input bytes excluded).", "",
                  "| library | retained | certificates | per certificate | × DER size |", "|---|---:|---:|---:|---:|"]
        for _, lib, retained, count, der in mem:
            retained, count, der = int(retained), int(count), int(der)
            lines.append(f"| {LIB_TITLE.get(lib, lib)} | {retained / 1024:.1f} KiB | {count} | "
                         f"{retained / max(count, 1):.0f} B | {retained / der:.2f}× |")
        lines += ["", f"Total DER size of the bundle: {int(mem[0][4]) / 1024:.1f} KiB.", ""]

# Goals.
def t(name):
    return main.get(name, {}).get("us")

def m(name):
    return main.get(name, {}).get("mallocs")

goals = []
def goal(text, ok, detail):
    if ok is None:
        goals.append(f"| {text} | not measured | {detail} |")
    else:
        goals.append(f"| {text} | {'**met**' if ok else '**missed**'} | {detail} |")

pw, pwa, pws = t("ParseWalkLeaf_Sigil"), m("ParseWalkLeaf_Sigil"), t("ParseWalkLeaf_SwiftCertificates")
if pw is not None:
    goal("parse + walk ≤ 1 µs", pw <= 1.0, f"{fmt_time(pw)}")
    goal("parse + walk: 0 allocations", pwa == 0, f"{fmt_count(pwa)} allocations")
    if pws:
        goal("parse + walk ≥ 30× faster than swift-certificates", pws / pw >= 30,
             f"{pws / pw:.1f}× ({fmt_time(pws)} vs {fmt_time(pw)})")
pd, pda = t("ParseDecodeExtensions_Sigil"), m("ParseDecodeExtensions_Sigil")
if pd is not None:
    goal("parse + decode the usual extension set ≤ 1.5 µs (issue 11)", pd <= 1.5, f"{fmt_time(pd)}")
    goal("parse + decode the usual extension set: 0 allocations (issue 11)", pda == 0, f"{fmt_count(pda)} allocations")
# Issue 11: P-256 ≤ 0.85× swift-certificates' (BoringSSL's) time; RSA and P-384 keep their lead.
for fam, limit in [("P256", 0.85), ("P384", 1.0), ("RSA2048", 1.0), ("RSA4096", 1.0)]:
    s, w = t(f"VerifySignature{fam}_Sigil"), t(f"VerifySignature{fam}_SwiftCertificates")
    if s and w:
        goal(f"{fam} signature ≤ {limit}× swift-certificates' time (issue 11)", s / w <= limit,
             f"{s / w:.2f}× ({fmt_time(s)} vs {fmt_time(w)})")
for fam, limit in [("RSA2048", 0.8), ("P256", 1.0), ("P384", 0.5)]:
    s, o = t(f"VerifySignature{fam}_Sigil"), t(f"VerifySignature{fam}_OpenSSL")
    if s and o:
        goal(f"{fam} signature ≤ {limit}× OpenSSL's time", s / o <= limit,
             f"{s / o:.2f}× ({fmt_time(s)} vs {fmt_time(o)})")
for size in ["64B", "1KiB", "16KiB"]:
    s = t(f"SHA256_{size}_SigilSHANI")
    os_ = [x for x in (t(f"SHA256_{size}_OpenSSL"), t(f"SHA256_{size}_OpenSSLLowLevel")) if x]
    if s and os_:
        o = min(os_)
        goal(f"SHA-256 {size} ≥ 1.0× OpenSSL (SHA-NI) speed, vs OpenSSL's faster API", o / s >= 1.0,
             f"{o / s:.2f}× ({fmt_time(s)} vs {fmt_time(o)})")
for fam in ["RSA2048", "P256", "P384"]:
    s, o = t(f"ChainParse{fam}_Sigil"), t(f"ChainParse{fam}_OpenSSL")
    if s and o:
        goal(f"chain {fam} with host, parse included, ≥ 10× faster than OpenSSL", o / s >= 10,
             f"{o / s:.1f}× ({fmt_time(s)} vs {fmt_time(o)})")
    s, w = t(f"ChainPreparsed{fam}_Sigil"), t(f"ChainPreparsed{fam}_SwiftCertificates")
    if s and w:
        goal(f"chain {fam} with host, pre-parsed, ≥ 2× faster than swift-certificates", w / s >= 2,
             f"{w / s:.1f}× ({fmt_time(s)} vs {fmt_time(w)})")
# Issue 11: the trust layer is thin, and the per-connection chain cost leads both peers.
for fam in ["RSA2048", "P256", "P384"]:
    s, a = t(f"TrustLayer{fam}_Sigil"), m(f"TrustLayer{fam}_Sigil")
    if s is not None:
        goal(f"trust layer {fam} (chain with host, parse included, minus signatures) ≤ 8 µs (issue 11)",
             s <= 8.0, f"{fmt_time(s)}")
        goal(f"trust layer {fam}: ≤ 4 allocations (issue 11)", a is not None and a <= 4, f"{fmt_count(a)} allocations")
for fam, vs_openssl, vs_swift in [("RSA2048", 8, 3), ("P256", 3, 1.5), ("P384", 3, 1.5)]:
    s, o, w = t(f"ChainParse{fam}_Sigil"), t(f"ChainParse{fam}_OpenSSL"), t(f"ChainParse{fam}_SwiftCertificates")
    if s and o:
        goal(f"chain {fam} with host, parse included, ≥ {vs_openssl}× faster than OpenSSL (issue 11)",
             o / s >= vs_openssl, f"{o / s:.1f}× ({fmt_time(s)} vs {fmt_time(o)})")
    if s and w:
        goal(f"chain {fam} with host, parse included, ≥ {vs_swift}× faster than swift-certificates (issue 11)",
             w / s >= vs_swift, f"{w / s:.1f}× ({fmt_time(s)} vs {fmt_time(w)})")
    s = t(f"ChainPreparsed{fam}_Sigil")
    for peer, title in [("OpenSSL", "OpenSSL"), ("SwiftCertificates", "swift-certificates")]:
        p = t(f"ChainPreparsed{fam}_{peer}")
        if s and p:
            goal(f"chain {fam} with host, pre-parsed, ≥ 1.3× faster than {title} (issue 11)",
                 p / s >= 1.3, f"{p / s:.2f}× ({fmt_time(s)} vs {fmt_time(p)})")
# Issue 22: EdDSA.
s_, w = t("VerifyEd25519_1KiB_Sigil"), t("VerifyEd25519_1KiB_SwiftCrypto")
if s_ and w:
    goal("Ed25519 signature (1 KiB) ≤ 0.8× swift-crypto/BoringSSL's time (issue 22)", s_ / w <= 0.8,
         f"{s_ / w:.2f}× ({fmt_time(s_)} vs {fmt_time(w)})")
s_, w = t("VerifySignatureEd25519_Sigil"), t("VerifySignatureEd25519_SwiftCertificates")
if s_ and w:
    goal("Ed25519 certificate signature ≤ 0.8× swift-certificates' (BoringSSL) time (issue 22)", s_ / w <= 0.8,
         f"{s_ / w:.2f}× ({fmt_time(s_)} vs {fmt_time(w)})")
for name in ("VerifyEd25519_1KiB_Sigil", "VerifySignatureEd25519_Sigil"):
    if t(name) is not None:
        a = m(name)
        goal(f"`{name.rpartition('_')[0]}`: 0 allocations (issue 22)", a == 0, f"{fmt_count(a)} allocations")
s_, g = t("VerifyEd25519_1KiB_Sigil"), t("VerifyEd25519_1KiB_Go")
if s_ and g:
    goal("Ed25519 signature (1 KiB) ≤ 0.8× Go `crypto/ed25519`'s time (issue 22)", s_ / g <= 0.8,
         f"{s_ / g:.2f}× ({fmt_time(s_)} vs {fmt_time(g)})")
for op in ("VerifyEd448_1KiB", "VerifySignatureEd448"):
    s_, o = t(f"{op}_Sigil"), t(f"{op}_OpenSSLEVP")
    if s_ and o:
        goal(f"`{op}` ≤ 1.0× OpenSSL `EVP_DigestVerify`'s time (issue 22)", s_ / o <= 1.0,
             f"{s_ / o:.2f}× ({fmt_time(s_)} vs {fmt_time(o)})")
s_, o, w = t("ChainParseEd25519_Sigil"), t("ChainParseEd25519_OpenSSL"), t("ChainParseEd25519_SwiftCertificates")
if s_ and o:
    goal("chain Ed25519 with host, parse included, ≥ 5× faster than OpenSSL (issue 22)", o / s_ >= 5,
         f"{o / s_:.1f}× ({fmt_time(s_)} vs {fmt_time(o)})")
if s_ and w:
    goal("chain Ed25519 with host, parse included, ≥ 2× faster than swift-certificates (issue 22)", w / s_ >= 2,
         f"{w / s_:.1f}× ({fmt_time(s_)} vs {fmt_time(w)})")
# Issue 24: Go crypto/x509 as a peer.
for fam, limit in [("RSA2048", 10), ("P256", 2.5), ("P384", 4)]:
    s_, g = t(f"ChainParse{fam}_Sigil"), t(f"ChainParse{fam}_Go")
    if s_ and g:
        goal(f"chain {fam} with host, parse included, ≥ {limit}× faster than Go `crypto/x509` (issue 24)",
             g / s_ >= limit, f"{g / s_:.1f}× ({fmt_time(s_)} vs {fmt_time(g)})")
# Issue 24: the signatures against BoringSSL (swift-certificates), the trust layer, the cache.
for fam, limit in [("P256", 0.65), ("P384", 0.45)]:
    s_, w = t(f"VerifySignature{fam}_Sigil"), t(f"VerifySignature{fam}_SwiftCertificates")
    if s_ and w:
        goal(f"{fam} signature ≤ {limit}× BoringSSL's (swift-certificates') time (issue 24)", s_ / w <= limit,
             f"{s_ / w:.2f}× ({fmt_time(s_)} vs {fmt_time(w)})")
s_ = t("TrustLayerRSA2048_Sigil")
if s_ is not None:
    goal("trust layer RSA2048 (chain parse + verify − 2 signatures) ≤ 2.5 µs (issue 24)", s_ <= 2.5, f"{fmt_time(s_)}")
s_ = t("ChainCachedDERRSA2048_Sigil")
if s_ is not None:
    goal("repeated RSA2048 chain + host with the verdict cache (DER in) ≤ 1 µs (issue 24)", s_ <= 1.0,
         f"{fmt_time(s_)}, {fmt_count(m('ChainCachedDERRSA2048_Sigil'))} allocations")
# Issue 24: `sigil inspect --json` (the facts inspect_throughput.sh writes beside its section; only
# when this run measured them).
inspect_facts_path = (sys.argv[7][:-3] + ".json") if len(sys.argv) > 7 and sys.argv[7].endswith(".md") else ""
if inspect_facts_path and os.path.exists(inspect_facts_path):
    f_ = json.load(open(inspect_facts_path))
    n_, one = f_["certificates"], f_["user_one_s"]
    if one > 0:
        goal("`inspect --json` one core (user time), system bundle × 200, ≥ 200 000 certificates/s (issue 24)",
             n_ / one >= 200000, f"{n_ / one:,.0f}/s ({one * 1e6 / n_:.1f} µs per certificate)")
        goal("`inspect --json` ≥ 30× OpenSSL `pkcs7 -print_certs -text` (user time) (issue 24)",
             f_["openssl_user_s"] / one >= 30, f"{f_['openssl_user_s'] / one:.0f}×")
        goal("`inspect --json` ≥ 20× the pyca loop (user time) (issue 24)", f_["pyca_user_s"] / one >= 20,
             f"{f_['pyca_user_s'] / one:.0f}×")
    if f_["wall_two_s"] > 0:
        goal("`inspect --json --jobs 2` ≥ 1.6× one job (wall), system bundle × 200 (issue 24)",
             f_["wall_one_s"] / f_["wall_two_s"] >= 1.6,
             f"{f_['wall_one_s'] / f_['wall_two_s']:.2f}× ({f_['wall_one_s']:.2f} s vs {f_['wall_two_s']:.2f} s; "
             "a 0.2 s input on a shared machine: see the 1 GB row)")
    rows_ = {r["label"]: r for r in f_.get("big_rows", [])}
    one_big = next((r for l, r in rows_.items() if "--jobs" not in l and "- <" not in l), None)
    two_big = next((r for l, r in rows_.items() if "--jobs 2 FILE" in l), None)
    if one_big and two_big and two_big["wall_s"] > 0:
        goal("`inspect --json --jobs 2` ≥ 1.6× one job (wall), 1 GB PEM file (issue 24)",
             one_big["wall_s"] / two_big["wall_s"] >= 1.6,
             f"{one_big['wall_s'] / two_big['wall_s']:.2f}× ({one_big['wall_s']:.1f} s vs {two_big['wall_s']:.1f} s)")
    if rows_:
        peak = max(r["rss_kb"] for r in rows_.values())
        goal("`inspect --json` of a 1 GB PEM file and from standard input: peak RSS ≤ 64 MB (issue 24)",
             peak * 1024 <= 64_000_000, f"{peak / 1024:.1f} MB at most over {len(rows_)} runs")
# `sigil inspect --json` throughput (scripts/inspect_throughput.sh, full runs): a section as
# written.
# A run that did not measure it (a `--filter` run) carries over the section the last RESULTS.md
# had, as written (with its own date and command), instead of dropping it.
inspect_path = sys.argv[7] if len(sys.argv) > 7 else ""
if inspect_path and os.path.exists(inspect_path):
    lines += open(inspect_path).read().strip().splitlines() + [""]
elif os.path.exists(out_path):
    previous = open(out_path).read().splitlines()
    heads = [i for i, l in enumerate(previous) if l.startswith("## Inspect throughput")]
    if heads:
        end = next((i for i in range(heads[0] + 1, len(previous)) if previous[i].startswith("## ")), len(previous))
        lines += [l for l in previous[heads[0]:end]]
        if lines[-1] != "":
            lines.append("")

mem = [l.split() for l in memory_lines if l.startswith("memory Sigil ")]
if mem:
    _, _, retained, count, der = mem[0]
    ratio = int(retained) / int(der)
    goal("loaded bundle ≤ 1.2× its DER size", ratio <= 1.2, f"{ratio:.2f}× ({int(retained) // int(count)} B per certificate)")

# The TLS handshake benchmark is a separate run (Benchmarks/TLS/run.sh, BoringSSL build): its last
# section is carried over as it was written, with its own date and load.
tls_section = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TLS", "RESULTS.md")
if os.path.exists(tls_section):
    tls_lines = open(tls_section).read().rstrip("\n").splitlines()
    lines += tls_lines + [""]
    # Issue 24: client CPU per handshake, Sigil (no cache) / NIOSSL, from that run's summary lines.
    for l in tls_lines:
        g_ = re.match(r"- (\S+), TLS (1\.\d): client CPU per handshake Sigil / NIOSSL = ([\d.]+)×", l)
        if g_:
            fam, ver, r_ = g_.group(1).rstrip(","), g_.group(2), float(g_.group(3))
            goal(f"client CPU per TLS {ver} handshake, {fam} chain, Sigil ≤ 0.9× NIOSSL (issue 24; TLS run)",
                 r_ <= 0.9, f"{r_:.3f}×")

if goals:
    met = sum("**met**" in g for g in goals)
    lines += ["## Goals", "", f"{met} of {len(goals)} met.", "",
              "| goal | status | measured |", "|---|---|---|"] + goals + [""]

open(out_path, "w").write("\n".join(lines))
print(f"wrote {out_path}: {len(main)} benchmarks, {len(goals)} goals")
