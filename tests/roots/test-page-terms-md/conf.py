project = "page-terms-md"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
copyright = "2026, sphinxcontrib-mlglossary tests"
version = "1.0"
