"""Generated wire modules of the Skyarena protocol (package ``skyarena.v1``).

Do not edit: run ``make proto`` after changing ``proto/skyarena/v1/*.proto``.
"""
