#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
/* The low-level EC_KEY/RSA calls build a key from raw bytes in ~2 us instead of ~85 us through
   OpenSSL 3.0's decoder framework; they are deprecated but supported throughout 3.x
   (docs/DECISIONS.md). */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/opensslv.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/md5.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/pkcs7.h>
#include <openssl/ssl.h>
#include <openssl/bio.h>
#include <openssl/rand.h>
#include <openssl/objects.h>
#include <openssl/provider.h>

static inline long COpenSSL_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int v) {
    return SSL_CTX_set_min_proto_version(ctx, v);
}
static inline long COpenSSL_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int v) {
    return SSL_CTX_set_max_proto_version(ctx, v);
}
static inline long COpenSSL_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline long COpenSSL_BIO_get_mem_data(BIO *bio, char **p) {
    return BIO_get_mem_data(bio, p);
}
static inline int COpenSSL_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *COpenSSL_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline void COpenSSL_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }
static inline EVP_PKEY *COpenSSL_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }
static inline EVP_PKEY *COpenSSL_EVP_RSA_gen(unsigned int bits) { return EVP_RSA_gen(bits); }
/* TLSProbe: the observer client's handshake facts (OCSP staple, SCTs) and the macros it needs. */
#include <openssl/ocsp.h>
#include <openssl/ct.h>
static inline long COpenSSL_SSL_CTX_set_max_cert_list(SSL_CTX *ctx, long n) { return SSL_CTX_set_max_cert_list(ctx, n); }
static inline long COpenSSL_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *x) { return SSL_CTX_add1_chain_cert(ctx, x); }
static inline long COpenSSL_SSL_set_tlsext_status_type(SSL *ssl, int type) { return SSL_set_tlsext_status_type(ssl, type); }
static inline long COpenSSL_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **p) {
    unsigned char *q = NULL;
    long n = SSL_get_tlsext_status_ocsp_resp(ssl, &q);
    *p = q;
    return n;
}
static inline long COpenSSL_SSL_set_msg_callback_arg(SSL *ssl, void *arg) { return SSL_set_msg_callback_arg(ssl, arg); }
static inline int COpenSSL_SSL_get_negotiated_group(SSL *ssl) { return (int)SSL_get_negotiated_group(ssl); }
static inline long COpenSSL_SSL_get_peer_tmp_key(SSL *ssl, EVP_PKEY **pkey) { return SSL_get_peer_tmp_key(ssl, pkey); }
static inline uint64_t COpenSSL_SSL_OP_LEGACY_SERVER_CONNECT(void) { return SSL_OP_LEGACY_SERVER_CONNECT; }
static inline unsigned long COpenSSL_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }
static inline int COpenSSL_sk_X509_NAME_num(const STACK_OF(X509_NAME) *sk) { return sk_X509_NAME_num(sk); }
static inline X509_NAME *COpenSSL_sk_X509_NAME_value(const STACK_OF(X509_NAME) *sk, int i) { return sk_X509_NAME_value(sk, i); }
static inline int COpenSSL_sk_SCT_num(const STACK_OF(SCT) *sk) { return sk_SCT_num(sk); }
static inline SCT *COpenSSL_sk_SCT_value(const STACK_OF(SCT) *sk, int i) { return sk_SCT_value(sk, i); }
/* TrustLab's servers: an explicit chain sent exactly as given (order, gaps), no automatic chain building. */
static inline long COpenSSL_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long COpenSSL_SSL_MODE_NO_AUTO_CHAIN(void) { return SSL_MODE_NO_AUTO_CHAIN; }
static inline int COpenSSL_SSL_VERIFY_PEER(void) { return SSL_VERIFY_PEER; }
static inline int COpenSSL_SSL_VERIFY_FAIL_IF_NO_PEER_CERT(void) { return SSL_VERIFY_FAIL_IF_NO_PEER_CERT; }

/* A DER OCSP response a lab server staples to every handshake whose client asks for one. The
   bytes belong to the Swift side and outlive the SSL_CTX. OpenSSL frees what it is given, so each
   handshake gets its own copy. */
typedef struct { const unsigned char *der; size_t length; } COpenSSL_Staple;
static inline int COpenSSL_staple_callback(SSL *ssl, void *arg) {
    const COpenSSL_Staple *staple = (const COpenSSL_Staple *)arg;
    if (staple == NULL || staple->length == 0) return SSL_TLSEXT_ERR_NOACK;
    unsigned char *copy = OPENSSL_malloc(staple->length);
    if (copy == NULL) return SSL_TLSEXT_ERR_NOACK;
    for (size_t i = 0; i < staple->length; i++) copy[i] = staple->der[i];
    if (SSL_set_tlsext_status_ocsp_resp(ssl, copy, (long)staple->length) != 1) {
        OPENSSL_free(copy);
        return SSL_TLSEXT_ERR_NOACK;
    }
    return SSL_TLSEXT_ERR_OK;
}
static inline int COpenSSL_SSL_CTX_set_staple(SSL_CTX *ctx, const COpenSSL_Staple *staple) {
    if (SSL_CTX_set_tlsext_status_cb(ctx, COpenSSL_staple_callback) != 1) return 0;
    return (int)SSL_CTX_set_tlsext_status_arg(ctx, (void *)staple);
}
#endif
