"""SofaPython3's ``Sofa.SofaLinearSolver``: in SofaPython3, importing it binds the linear solver
classes (their matrix and vectors). Fluxion reads a node's linear system through its
MatrixLinearSystem (``A()``, ``b()``, ``x()``, fluxion/sofa_matrices.py); the module exists so
that the import works, and its classes are not provided."""
