// Thin C helpers over OpenSSL's libcrypto for the benchmarks: one call per measured
// operation, opaque pointers only, so no OpenSSL macro or STACK_OF crosses into Swift.
#ifndef SIGIL_BENCH_COPENSSL_H
#define SIGIL_BENCH_COPENSSL_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct sb_x509 sb_x509;        // X509
typedef struct sb_chain_ctx sb_chain_ctx;

/// d2i_X509 + X509_free; returns 1 when the certificate parsed.
int sb_parse_and_free(const uint8_t *der, size_t len);
/// d2i_X509 (NULL on failure); free with sb_x509_free.
sb_x509 *sb_x509_parse(const uint8_t *der, size_t len);
void sb_x509_free(sb_x509 *cert);
/// X509_verify(cert, X509_get0_pubkey(issuer)); 1 = valid.
int sb_x509_verify(sb_x509 *cert, sb_x509 *issuer);
/// X509_get0_pubkey (the EVP_PKEY the certificate owns; not to be freed).
void *sb_x509_get0_pubkey(sb_x509 *cert);
/// EVP_PKEY_new_raw_public_key for Ed25519 (ed448 = 0) or Ed448 (ed448 = 1); kept for the process.
void *sb_eddsa_raw_public_key(int ed448, const uint8_t *key, size_t len);
/// One EdDSA verification as an OpenSSL 3 user writes it: EVP_MD_CTX_new, EVP_DigestVerifyInit
/// (no digest: pure EdDSA), EVP_DigestVerify, EVP_MD_CTX_free. 1 = valid.
int sb_eddsa_verify(void *pkey, const uint8_t *msg, size_t msgLen, const uint8_t *sig, size_t sigLen);
/// SHA256() one-shot into out[32].
void sb_sha256(const void *data, size_t len, uint8_t *out);
/// The low-level (deprecated in 3.0, still shipped) SHA256_Init/Update/Final: no EVP fetch,
/// no allocation — OpenSSL's compression function with the least overhead around it.
void sb_sha256_lowlevel(const void *data, size_t len, uint8_t *out);
const char *sb_openssl_version(void);

/// A store holding `root` as the only trust anchor, with a verify param asking for the
/// SSL-server purpose, `host` and the fixed `time`.
sb_chain_ctx *sb_chain_ctx_new(const uint8_t *root, size_t rootLen, const char *host, time_t time);
void sb_chain_ctx_free(sb_chain_ctx *ctx);
/// Parse included: d2i leaf and intermediate, X509_verify_cert, free. 1 = trusted.
int sb_chain_verify_der(sb_chain_ctx *ctx, const uint8_t *leaf, size_t leafLen,
                        const uint8_t *intermediate, size_t intermediateLen);
/// Pre-parsed: the leaf and intermediates held by ctx (set once), X509_verify_cert only.
int sb_chain_set_leaf(sb_chain_ctx *ctx, const uint8_t *leaf, size_t leafLen);
int sb_chain_add_intermediate(sb_chain_ctx *ctx, const uint8_t *der, size_t len);
int sb_chain_verify_parsed(sb_chain_ctx *ctx);
/// Last X509_verify_cert error string (for diagnosing a failing setup).
const char *sb_chain_last_error(sb_chain_ctx *ctx);

/// PEM_read_bio over the whole bundle (base64 decoding of every block); returns the count.
int sb_pem_decode_all(const uint8_t *pem, size_t len);
/// PEM_X509_INFO_read_bio + X509_STORE_add_cert for each: the bundle as trust anchors.
/// Returns the number of certificates added; the store is freed.
int sb_store_load_pem(const uint8_t *pem, size_t len);
/// Same, but keeps the store (for the memory measurement); free with sb_store_free.
void *sb_store_new_from_pem(const uint8_t *pem, size_t len, int *count);
void sb_store_free(void *store);

/// glibc mallinfo2().uordblks: bytes currently allocated with malloc (SigilMemory).
size_t sb_heap_in_use(void);
/* CRLs: parse (d2i_X509_CRL) and free; parse once and look serials up (X509_CRL_get0_by_serial). */
int sb_crl_parse_and_free(const uint8_t *der, size_t len);
void *sb_crl_parse(const uint8_t *der, size_t len);
int sb_crl_lookup(void *crl, const uint8_t *serial, size_t len);

#endif
