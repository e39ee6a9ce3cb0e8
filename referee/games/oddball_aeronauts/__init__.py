"""Not yet implemented: registers nothing until its engine lands."""
