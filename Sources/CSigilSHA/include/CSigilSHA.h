#ifndef CSIGILSHA_H
#define CSIGILSHA_H
/* Placeholder: the SHA-NI engine lands with the crypto issue. */
int csigil_sha_placeholder(void);
#endif
