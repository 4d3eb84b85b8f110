#ifndef CSIGILBIGNUM_H
#define CSIGILBIGNUM_H
/* Montgomery multiplication kernels using the x86 BMI2/ADX instructions (MULX, ADCX, ADOX),
   compiled per function with target attributes and chosen at run time. Placeholder until the
   kernels land. */
int csigil_bignum_mulx_supported(void);
#endif
