module sigil/ed25519edges

go 1.19
