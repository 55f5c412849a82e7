project = "hostile"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build", "_included*"]
copyright = "2026, sphinxcontrib-mlglossary tests"
version = "1.0"
