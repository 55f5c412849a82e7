project = "page-terms-rst"
extensions = ["sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
copyright = "2026, sphinxcontrib-mlglossary tests"
version = "1.0"
