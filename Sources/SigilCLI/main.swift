print("sigil: under construction")
