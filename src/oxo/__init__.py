"""oxo: exact answers about tic-tac-toe and its relatives."""

from oxo.errors import BoardSpecError, MoveError, OxoError, PositionError

__version__ = "0.1.0"

__all__ = ["BoardSpecError", "MoveError", "OxoError", "PositionError", "__version__"]
