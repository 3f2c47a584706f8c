"""SofaPython3's ``Sofa.SofaLinearSystem``: in SofaPython3, importing it binds the linear-system
classes so that a MatrixLinearSystem object has ``A()``, ``b()`` and ``x()``
(bindings/Modules/src/SofaPython3/SofaLinearSystem). Fluxion's MatrixLinearSystem objects have
them anyway (fluxion/sofa_matrices.py); the module exists so that the import works."""
