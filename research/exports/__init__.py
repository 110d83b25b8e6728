"""Research exports: table declarations, filters, CSV writers and the codebook.

``tables`` declares every table once; everything else derives from it.
"""
