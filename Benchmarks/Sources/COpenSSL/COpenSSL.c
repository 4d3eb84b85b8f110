#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "COpenSSL.h"
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <openssl/err.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

int sb_parse_and_free(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    X509 *x = d2i_X509(NULL, &p, (long)len);
    if (!x) return 0;
    X509_free(x);
    return 1;
}

sb_x509 *sb_x509_parse(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    return (sb_x509 *)d2i_X509(NULL, &p, (long)len);
}

void sb_x509_free(sb_x509 *cert) { X509_free((X509 *)cert); }

int sb_x509_verify(sb_x509 *cert, sb_x509 *issuer) {
    EVP_PKEY *key = X509_get0_pubkey((X509 *)issuer);
    return key && X509_verify((X509 *)cert, key) == 1;
}

void *sb_x509_get0_pubkey(sb_x509 *cert) { return X509_get0_pubkey((X509 *)cert); }

void *sb_eddsa_raw_public_key(int ed448, const uint8_t *key, size_t len) {
    return EVP_PKEY_new_raw_public_key(ed448 ? EVP_PKEY_ED448 : EVP_PKEY_ED25519, NULL, key, len);
}

int sb_eddsa_verify(void *pkey, const uint8_t *msg, size_t msgLen, const uint8_t *sig, size_t sigLen) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx) return 0;
    int ok = EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, (EVP_PKEY *)pkey) == 1 &&
             EVP_DigestVerify(ctx, sig, sigLen, msg, msgLen) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

void sb_sha256(const void *data, size_t len, uint8_t *out) { SHA256(data, len, out); }

void sb_sha256_lowlevel(const void *data, size_t len, uint8_t *out) {
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, data, len);
    SHA256_Final(out, &ctx);
}

const char *sb_openssl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

struct sb_chain_ctx {
    X509_STORE *store;
    X509_STORE_CTX *ctx;
    X509_VERIFY_PARAM *param;
    X509 *leaf;
    STACK_OF(X509) *intermediates;
    int lastError;
};

sb_chain_ctx *sb_chain_ctx_new(const uint8_t *root, size_t rootLen, const char *host, time_t time) {
    sb_chain_ctx *c = calloc(1, sizeof *c);
    const unsigned char *p = root;
    X509 *r = d2i_X509(NULL, &p, (long)rootLen);
    if (!r) { free(c); return NULL; }
    c->store = X509_STORE_new();
    X509_STORE_add_cert(c->store, r);
    X509_free(r);
    c->ctx = X509_STORE_CTX_new();
    c->param = X509_VERIFY_PARAM_new();
    X509_VERIFY_PARAM_set_purpose(c->param, X509_PURPOSE_SSL_SERVER);
    X509_VERIFY_PARAM_set1_host(c->param, host, strlen(host));
    X509_VERIFY_PARAM_set_time(c->param, time);
    return c;
}

void sb_chain_ctx_free(sb_chain_ctx *c) {
    if (!c) return;
    X509_free(c->leaf);
    sk_X509_pop_free(c->intermediates, X509_free);
    X509_VERIFY_PARAM_free(c->param);
    X509_STORE_CTX_free(c->ctx);
    X509_STORE_free(c->store);
    free(c);
}

static int run(sb_chain_ctx *c, X509 *leaf, STACK_OF(X509) *chain) {
    if (!X509_STORE_CTX_init(c->ctx, c->store, leaf, chain)) return 0;
    X509_VERIFY_PARAM_set1(X509_STORE_CTX_get0_param(c->ctx), c->param);
    int ok = X509_verify_cert(c->ctx) == 1;
    c->lastError = X509_STORE_CTX_get_error(c->ctx);
    X509_STORE_CTX_cleanup(c->ctx);
    return ok;
}

int sb_chain_verify_der(sb_chain_ctx *c, const uint8_t *leaf, size_t leafLen,
                        const uint8_t *intermediate, size_t intermediateLen) {
    const unsigned char *p = leaf;
    X509 *l = d2i_X509(NULL, &p, (long)leafLen);
    p = intermediate;
    X509 *i = d2i_X509(NULL, &p, (long)intermediateLen);
    STACK_OF(X509) *chain = sk_X509_new_null();
    sk_X509_push(chain, i);
    int ok = l && i && run(c, l, chain);
    sk_X509_pop_free(chain, X509_free);
    X509_free(l);
    return ok;
}

int sb_chain_set_leaf(sb_chain_ctx *c, const uint8_t *leaf, size_t leafLen) {
    const unsigned char *p = leaf;
    X509_free(c->leaf);
    c->leaf = d2i_X509(NULL, &p, (long)leafLen);
    if (!c->intermediates) c->intermediates = sk_X509_new_null();
    return c->leaf != NULL;
}

int sb_chain_add_intermediate(sb_chain_ctx *c, const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    X509 *i = d2i_X509(NULL, &p, (long)len);
    if (!i) return 0;
    if (!c->intermediates) c->intermediates = sk_X509_new_null();
    sk_X509_push(c->intermediates, i);
    return 1;
}

int sb_chain_verify_parsed(sb_chain_ctx *c) { return run(c, c->leaf, c->intermediates); }

const char *sb_chain_last_error(sb_chain_ctx *c) { return X509_verify_cert_error_string(c->lastError); }

int sb_pem_decode_all(const uint8_t *pem, size_t len) {
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    int count = 0;
    char *name = NULL, *header = NULL;
    unsigned char *data = NULL;
    long dataLen = 0;
    while (PEM_read_bio(bio, &name, &header, &data, &dataLen) == 1) {
        count++;
        OPENSSL_free(name);
        OPENSSL_free(header);
        OPENSSL_free(data);
    }
    ERR_clear_error();
    BIO_free(bio);
    return count;
}

void *sb_store_new_from_pem(const uint8_t *pem, size_t len, int *count) {
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    STACK_OF(X509_INFO) *infos = PEM_X509_INFO_read_bio(bio, NULL, NULL, NULL);
    BIO_free(bio);
    X509_STORE *store = X509_STORE_new();
    int n = 0;
    for (int i = 0; infos && i < sk_X509_INFO_num(infos); i++) {
        X509_INFO *info = sk_X509_INFO_value(infos, i);
        if (info->x509 && X509_STORE_add_cert(store, info->x509)) n++;
    }
    sk_X509_INFO_pop_free(infos, X509_INFO_free);
    if (count) *count = n;
    return store;
}

void sb_store_free(void *store) { X509_STORE_free((X509_STORE *)store); }

int sb_store_load_pem(const uint8_t *pem, size_t len) {
    int n = 0;
    void *store = sb_store_new_from_pem(pem, len, &n);
    sb_store_free(store);
    return n;
}

size_t sb_heap_in_use(void) { return mallinfo2().uordblks; }

int sb_crl_parse_and_free(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    X509_CRL *c = d2i_X509_CRL(NULL, &p, (long)len);
    if (!c) return 0;
    X509_CRL_free(c);
    return 1;
}

void *sb_crl_parse(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    return d2i_X509_CRL(NULL, &p, (long)len);
}

/* 1 when the serial (INTEGER content octets, non-negative) is on the CRL. The first call
   sorts the entries (OpenSSL sorts lazily, under a lock). */
int sb_crl_lookup(void *crl, const uint8_t *serial, size_t len) {
    ASN1_INTEGER *i = ASN1_INTEGER_new();
    BIGNUM *bn = BN_bin2bn(serial, (int)len, NULL);
    BN_to_ASN1_INTEGER(bn, i);
    X509_REVOKED *r = NULL;
    int found = X509_CRL_get0_by_serial((X509_CRL *)crl, &r, i);
    BN_free(bn);
    ASN1_INTEGER_free(i);
    return found == 1;
}
