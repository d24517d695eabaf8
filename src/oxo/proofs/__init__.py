"""Proofs that can be checked without oxo's solvers: strategy certificates (:mod:`oxo.proofs.certificate`)."""
