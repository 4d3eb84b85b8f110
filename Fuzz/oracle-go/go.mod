module sigil.test/oraclego

go 1.19
