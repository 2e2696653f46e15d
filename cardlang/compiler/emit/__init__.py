"""The fast engine: the IR of a game (`compiler.ir`, from `compiler.lower`) laid out as an op
graph (`graph`), rewritten by the passes (`compiler.passes`), and written as Python by one emitter
with a symbol table (`writer`, `expr`, `stmt`, `choose`, `program`): one method per IR node
(`x_<Node>` for expressions, `s_<Node>` for statements, `o_<Op>` for ops).

The emitter never searches or rewrites source it wrote: it builds each expression from its
children's, binds every constant that is not a plain literal by name, and knows from its symbol
table which locals hold which slots. The program has the protocol of `ProgramBase`, as the
reference interpreter's has, so `Game`/`State`, views, saves, bots and simulations run on either.
The entry point is `build.emit_program`.
"""

