#include "sigil_openssl_diff.h"
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 16 };
static EVP_PKEY *keys[MAX_KEYS];
static int key_count;

int sigil_diff_load_key(const char *path) {
    if (key_count >= MAX_KEYS) return -1;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    EVP_PKEY *k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
    fclose(f);
    if (!k) return -1;
    keys[key_count] = k;
    return key_count++;
}

int sigil_diff_spki(int key, uint8_t *out, int cap) {
    if (key < 0 || key >= key_count) return -1;
    int n = i2d_PUBKEY(keys[key], NULL);
    if (n <= 0 || n > cap) return -1;
    uint8_t *p = out;
    return i2d_PUBKEY(keys[key], &p);
}

int sigil_diff_sign(int key, int digest, const uint8_t *msg, size_t len, uint8_t *sig, int cap) {
    if (key < 0 || key >= key_count) return -1;
    const EVP_MD *md = digest == 1 ? EVP_sha1() : digest == 384 ? EVP_sha384()
                     : digest == 512 ? EVP_sha512() : EVP_sha256();
    /* EdDSA signs the message itself (RFC 8032 PureEdDSA): no digest. */
    int id = EVP_PKEY_get_base_id(keys[key]);
    if (id == EVP_PKEY_ED25519 || id == EVP_PKEY_ED448) md = NULL;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx) return -1;
    size_t siglen = (size_t)cap;
    int ok = EVP_DigestSignInit(ctx, NULL, md, NULL, keys[key]) == 1
          && EVP_DigestSign(ctx, sig, &siglen, msg, len) == 1;
    EVP_MD_CTX_free(ctx);
    return ok ? (int)siglen : -1;
}

static int record_cb(int ok, X509_STORE_CTX *ctx) {
    if (!ok) {
        sigil_diff_result *r = X509_STORE_CTX_get_app_data(ctx);
        int e = X509_STORE_CTX_get_error(ctx);
        if (r && r->count < SIGIL_DIFF_MAX_ERRORS) {
            r->errors[r->count] = e;
            r->depths[r->count] = X509_STORE_CTX_get_error_depth(ctx);
            r->count++;
        }
    }
    return 1; // continue: collect every error
}

int sigil_diff_verify(const uint8_t *const *certs, const size_t *lens, int n,
                      const uint8_t *const *anchors, const size_t *alens, int na,
                      const char *host, int host_is_ip, int64_t at, int strict,
                      sigil_diff_result *out) {
    memset(out, 0, sizeof *out);
    if (n < 1) return -1;
    const unsigned char *p = certs[0];
    X509 *leaf = d2i_X509(NULL, &p, (long)lens[0]);
    if (!leaf || p != certs[0] + lens[0]) { X509_free(leaf); return 0; }
    out->parsed = 1;
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    // The decoded inputs with their indexes (to map OpenSSL's chain back to them).
    X509 **mine = calloc((size_t)(n + na), sizeof *mine);
    int *origin = calloc((size_t)(n + na), sizeof *origin);
    int nmine = 0;
    for (int i = 1; i < n; i++) {
        p = certs[i];
        X509 *c = d2i_X509(NULL, &p, (long)lens[i]);
        if (c && p == certs[i] + lens[i]) {
            sk_X509_push(untrusted, c);
            if (mine) { mine[nmine] = c; origin[nmine++] = i; }
        }
        else { X509_free(c); if (i < 32) out->undecodable_untrusted |= 1u << i; }
    }
    X509_STORE *store = X509_STORE_new();
    for (int i = 0; i < na; i++) {
        p = anchors[i];
        X509 *c = d2i_X509(NULL, &p, (long)alens[i]);
        if (c && p == anchors[i] + alens[i]) {
            X509_STORE_add_cert(store, c);
            if (mine && X509_up_ref(c)) { mine[nmine] = c; origin[nmine++] = -1 - i; }
        }
        else if (i < 32) out->undecodable_anchors |= 1u << i;
        X509_free(c);
    }
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    int rc = -1;
    if (ctx && X509_STORE_CTX_init(ctx, store, leaf, untrusted) == 1) {
        X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
        X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
        X509_VERIFY_PARAM_set_trust(param, X509_TRUST_SSL_SERVER);
        X509_VERIFY_PARAM_set_time(param, (time_t)at);
        X509_VERIFY_PARAM_set_auth_level(param, 2);
        X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_PARTIAL_CHAIN | (strict ? X509_V_FLAG_X509_STRICT : 0));
        if (host) {
            if (host_is_ip) X509_VERIFY_PARAM_set1_ip_asc(param, host);
            else X509_VERIFY_PARAM_set1_host(param, host, 0);
        }
        X509_STORE_CTX_set_app_data(ctx, out);
        X509_STORE_CTX_set_verify_cb(ctx, record_cb);
        int v = X509_verify_cert(ctx);
        if (v != 1 && out->count == 0 && out->count < SIGIL_DIFF_MAX_ERRORS) {
            out->errors[out->count] = X509_STORE_CTX_get_error(ctx);
            out->depths[out->count] = X509_STORE_CTX_get_error_depth(ctx);
            out->count++;
        }
        STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(ctx);
        out->chain_length = chain ? sk_X509_num(chain) : 0;
        for (int k = 0; k < out->chain_length && k < SIGIL_DIFF_MAX_ERRORS; k++) {
            X509 *x = sk_X509_value(chain, k);
            out->chain_source[k] = -1000;
            if (X509_cmp(x, leaf) == 0) { out->chain_source[k] = 0; continue; }
            for (int m = 0; m < nmine; m++) {
                if (X509_cmp(x, mine[m]) == 0) { out->chain_source[k] = origin[m]; break; }
            }
        }
        out->trusted = v == 1 && out->count == 0;
        rc = 0;
    }
    X509_STORE_CTX_free(ctx);
    for (int m = 0; m < nmine; m++) if (origin[m] < 0) X509_free(mine[m]);
    free(mine);
    free(origin);
    X509_STORE_free(store);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(leaf);
    return rc;
}

const char *sigil_diff_error_string(int error) { return X509_verify_cert_error_string(error); }
