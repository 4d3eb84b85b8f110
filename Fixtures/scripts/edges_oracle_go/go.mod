module sigil/edges_oracle

go 1.19
