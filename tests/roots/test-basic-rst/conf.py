project = "basic-rst"
extensions = ["sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
