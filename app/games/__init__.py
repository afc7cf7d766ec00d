"""Pure rules engines: no I/O, no clock, no global random, standard library only.

`core` holds the vocabulary every game speaks (seats, the `Game` protocol, `IllegalAction`),
`codec` turns the games' dataclasses into JSON and back and writes their JSON Schemas, and
`registry` maps game names to engines. docs/rules.md describes the rules the engines implement.
"""
