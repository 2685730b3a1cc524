"""The page's language, for the table's modules: the names of :mod:`pishe.lang`, where the
language, the catalogs and the table's own (:data:`TABLE`, ``_``, ``ngettext``) live."""

from ..lang import (LANGUAGES, PSEUDO, TABLE, Catalog, N_, _, catalog, catalog_named, from_environment, language,
                    lower, named, ngettext, pseudo, set_language, upper)

__all__ = ["LANGUAGES", "PSEUDO", "TABLE", "Catalog", "catalog", "set_language", "language", "from_environment",
           "upper", "lower", "named", "pseudo", "N_", "_", "ngettext", "catalog_named"]
