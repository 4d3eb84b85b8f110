module sigilbench/gopeer

go 1.19
