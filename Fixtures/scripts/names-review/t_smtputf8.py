# rfc822Name name constraints vs an SmtpUTF8Mailbox otherName (1.3.6.1.5.5.7.8.9) in the leaf SAN.
from mk import *
CL=[ExtendedKeyUsageOID.CLIENT_AUTH, ExtendedKeyUsageOID.EMAIL_PROTECTION]
on = tlv(0xA0, tlv(0x06, bytes([0x2b,6,1,5,5,7,8,9])) + tlv(0xA0, tlv(0x0c, "x@evil.com".encode())))
for c, nc in [("em-p-smtputf8", nc_der(permitted=[email("example.com")])), ("em-e-smtputf8", nc_der(excluded=[email("evil.com")]))]:
    root = ca(name("U8 Root"), nc=nc)
    lf = leaf(name("u"), root, san_der(email("a@example.com"), on), eku=CL)
    d = write(c, root, [], lf); report(c, d, mail="a@example.com", kind="client")
