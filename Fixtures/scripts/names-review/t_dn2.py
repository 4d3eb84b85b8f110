# Excluded directoryName with a multi-valued RDN; the leaf's RDN holds the same attributes,
# DER-sorted, but a different string type changes the DER SET OF order.
from mk import *
from cryptography.x509.name import _ASN1Type as T
from cryptography.x509.oid import NameOID as N
def A(oid, v, t=None): return x509.NameAttribute(oid, v, _type=t) if t else x509.NameAttribute(oid, v)
SAN = san_der(dns("www.example.com"))
excl = x509.Name([x509.RelativeDistinguishedName([A(N.ORGANIZATION_NAME, "Evil", T.UTF8String), A(N.ORGANIZATIONAL_UNIT_NAME, "xxxxxx", T.UTF8String)])])
subj = x509.Name([x509.RelativeDistinguishedName([A(N.ORGANIZATION_NAME, "Evil", T.BMPString), A(N.ORGANIZATIONAL_UNIT_NAME, "xxxxxx", T.UTF8String)]),
                  x509.RelativeDistinguishedName([A(N.COMMON_NAME, "leaf")])])
print("constraint:", excl.public_bytes().hex()); print("subject:   ", subj.public_bytes().hex())
root = ca(name("DN Root"), nc=nc_der(excluded=[dirname(excl)]))
lf = leaf(subj, root, SAN)
d = write("dn-mv-bmp-order", root, [], lf); report("dn-mv-bmp-order", d, host="www.example.com")
# control: same attributes, same types -> excluded
subj2 = x509.Name([x509.RelativeDistinguishedName([A(N.ORGANIZATION_NAME, "Evil", T.UTF8String), A(N.ORGANIZATIONAL_UNIT_NAME, "xxxxxx", T.UTF8String)]),
                  x509.RelativeDistinguishedName([A(N.COMMON_NAME, "leaf")])])
lf = leaf(subj2, root, SAN)
d = write("dn-mv-control", root, [], lf); report("dn-mv-control", d, host="www.example.com")
# the same attributes in two RDN orders with the same types but the two OU values of one type
excl3 = x509.Name([x509.RelativeDistinguishedName([A(N.ORGANIZATIONAL_UNIT_NAME, "a", T.UTF8String), A(N.ORGANIZATIONAL_UNIT_NAME, "b", T.UTF8String)])])
subj3 = x509.Name([x509.RelativeDistinguishedName([A(N.ORGANIZATIONAL_UNIT_NAME, "a", T.PrintableString), A(N.ORGANIZATIONAL_UNIT_NAME, "b", T.UTF8String)]),
                  x509.RelativeDistinguishedName([A(N.COMMON_NAME, "leaf")])])
root3 = ca(name("DN Root3"), nc=nc_der(excluded=[dirname(excl3)]))
lf = leaf(subj3, root3, SAN)
d = write("dn-mv-ou-order", root3, [], lf); report("dn-mv-ou-order", d, host="www.example.com")
