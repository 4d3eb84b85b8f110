// OpenSSL libcrypto for the differential verification target (FuzzVerifyDiff, diffbatch):
// fixture keys, signing a TBSCertificate, and X509_verify_cert on the same chain Sigil sees.
// Fuzz package only: the library targets never link OpenSSL.
#ifndef SIGIL_OPENSSL_DIFF_H
#define SIGIL_OPENSSL_DIFF_H
#include <stddef.h>
#include <stdint.h>

/// Loads a PEM private key; returns its handle (>= 0) or -1.
int sigil_diff_load_key(const char *path);
/// DER SubjectPublicKeyInfo of a loaded key into out (cap bytes); returns its length or -1.
int sigil_diff_spki(int key, uint8_t *out, int cap);
/// Signs msg with key and digest (1 = SHA-1, 256, 384, 512; ECDSA or RSA PKCS#1 v1.5 by key
/// type); returns the signature length (DER ECDSA-Sig-Value for EC) or -1.
int sigil_diff_sign(int key, int digest, const uint8_t *msg, size_t len, uint8_t *sig, int cap);

enum { SIGIL_DIFF_MAX_ERRORS = 32 };
typedef struct {
    int parsed;                        // the leaf parsed (d2i_X509)
    int trusted;                       // no error reported while verifying
    int count;                         // errors recorded (all of them: the callback continues)
    int errors[SIGIL_DIFF_MAX_ERRORS]; // X509_V_ERR_*
    int depths[SIGIL_DIFF_MAX_ERRORS]; // 0 = leaf
    int chain_length;                  // length of the chain OpenSSL built
    uint32_t undecodable_untrusted;    // bit i: certs[i] (i >= 1) did not decode (d2i_X509)
    uint32_t undecodable_anchors;      // bit j: anchors[j] did not decode
    // Where each certificate of OpenSSL's chain (0 = leaf) came from: i >= 0 certs[i],
    // -1 - j anchors[j], -1000 not found among the inputs (first SIGIL_DIFF_MAX_ERRORS).
    int chain_source[SIGIL_DIFF_MAX_ERRORS];
} sigil_diff_result;

/// X509_verify_cert: certs[0] is the leaf, certs[1..n) the untrusted certificates (those that
/// do not parse are skipped); anchors are the trusted store (X509_V_FLAG_PARTIAL_CHAIN: any
/// anchor, as Sigil's anchors, stands for its name and key). Purpose SSL server, the host
/// (DNS name, or an IP address when host_is_ip), time `at` (X509_V_FLAG_USE_CHECK_TIME),
/// X509_V_FLAG_X509_STRICT when strict, auth level 2 (RSA >= 2048 bits, no SHA-1).
/// A verify callback records every error and continues, so `errors` holds all of them.
int sigil_diff_verify(const uint8_t *const *certs, const size_t *lens, int n,
                      const uint8_t *const *anchors, const size_t *alens, int na,
                      const char *host, int host_is_ip, int64_t at, int strict,
                      sigil_diff_result *out);
/// X509_verify_cert_error_string.
const char *sigil_diff_error_string(int error);
#endif
