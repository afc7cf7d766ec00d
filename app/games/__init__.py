"""Pure rules engines: no I/O, no clock, no global random, standard library only.

`core` holds the vocabulary every game speaks (seats, the `Game` protocol, `IllegalAction`),
`codec` turns actions and events into JSON and back, and `registry` maps game names to engines.
"""
