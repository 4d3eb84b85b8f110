module sigil/purposeoracle

go 1.19
