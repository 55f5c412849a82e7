"""Which LaTeX an entry's math may hold: plain formulas, nothing that reaches past them.

Math is handed as written to LaTeX (the PDF, ``sphinx.ext.imgmath``) and to MathJax.
Both are programming languages: ``\\input`` reads a file into the output, ``\\end{document}``
ends the PDF, ``\\catcode`` or ``^^5c`` rebuild any command, and MathJax's ``\\href``,
``\\style``, ``\\cssId`` and ``\\class`` make links, cover the page or take an anchor's
id. A denylist would miss the next one, so math from glossary data may use only the
commands and environments listed here: letters, operators, relations, arrows,
delimiters, accents, fonts and the usual layout environments.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: control words a formula may use (without the backslash)
ALLOWED_COMMANDS = _words(
    """
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi
    pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega
    Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
    sum prod coprod int iint iiint oint bigcup bigcap bigoplus bigotimes bigodot bigvee bigwedge
    lim limsup liminf sup inf max min arg log ln lg exp sin cos tan cot sec csc sinh cosh tanh coth
    arcsin arccos arctan det dim ker deg gcd hom Pr
    leq le geq ge neq ne approx sim simeq cong equiv propto ll gg prec succ preceq succeq
    subset subseteq supset supseteq subsetneq supsetneq in notin ni mid nmid parallel perp
    models vdash dashv asymp doteq
    to gets rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow longrightarrow
    longleftarrow Longrightarrow Longleftarrow longleftrightarrow mapsto longmapsto implies iff
    uparrow downarrow Uparrow Downarrow nearrow searrow swarrow nwarrow hookrightarrow hookleftarrow
    times cdot div pm mp ast star circ bullet oplus ominus otimes oslash odot cup cap sqcup sqcap
    setminus wedge vee land lor lnot neg uplus amalg dagger ddagger wr
    infty partial nabla forall exists nexists emptyset varnothing ell hbar imath jmath Re Im aleph
    prime dots ldots cdots vdots ddots top bot angle triangle square surd flat natural sharp
    left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr
    langle rangle lceil rceil lfloor rfloor lvert rvert lVert rVert vert Vert backslash lbrace rbrace
    frac dfrac tfrac sqrt binom tbinom dbinom choose over atop
    overline underline hat widehat tilde widetilde bar vec dot ddot check breve acute grave
    overbrace underbrace overset underset stackrel overrightarrow overleftarrow
    mathbf mathrm mathit mathcal mathbb mathfrak mathsf mathtt boldsymbol text textrm textbf textit
    operatorname displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits
    quad qquad colon not
    begin end
    """
)

#: environments ``\\begin{...}`` may open
ALLOWED_ENVIRONMENTS = _words(
    "matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix cases aligned gathered split array"
)

#: control symbols (a backslash and one character) a formula may use
ALLOWED_SYMBOLS = frozenset(",;:! {}|\\_&$#%")

_CONTROL = re.compile(r"\\([A-Za-z]+|.?)", re.DOTALL)
_ENVIRONMENT = re.compile(r"\s*\{([A-Za-z*]*)\}")
#: TeX reads ``^^5c`` as a backslash (and ``^^M`` as a line end): a way round every check
_CHARACTER_CODE = re.compile(r"\^\^")
#: characters with a meaning of their own to TeX (escaped forms such as ``\\%`` are fine)
_REFUSED_CHARACTERS = {
    "%": "'%' starts a comment that hides the rest of the line (write \\% for a percent sign)",
    "#": "'#' parameters are not allowed",
    "$": "'$' leaves math mode (write \\$ for a dollar sign)",
}
#: the longest formula we read; a glossary's formulas are a few hundred characters
MAX_LENGTH = 2000


def math_problem(latex: str) -> str:
    """Why ``latex`` can't be typeset from glossary data ("" when it can)."""
    if len(latex) > MAX_LENGTH:
        return f"it is longer than {MAX_LENGTH} characters"
    if _CHARACTER_CODE.search(latex):
        return "'^^' character codes are not allowed"
    environments: list[str] = []
    depth = 0
    position = 0
    while position < len(latex):
        char = latex[position]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return "a '}' closes a group that was never opened"
        elif char in _REFUSED_CHARACTERS:
            return _REFUSED_CHARACTERS[char]
        elif char == "\\":
            found = _CONTROL.match(latex, position)
            assert found is not None  # the pattern matches any backslash
            name = found.group(1)
            position = found.end()
            if len(name) <= 1 and not name.isalpha():
                if name not in ALLOWED_SYMBOLS or not name:
                    return f"the command '\\{name}' is not allowed"
                continue
            if name not in ALLOWED_COMMANDS:
                return f"the command '\\{name}' is not allowed in glossary math"
            if name in ("begin", "end"):
                environment = _ENVIRONMENT.match(latex, position)
                if environment is None or environment.group(1) not in ALLOWED_ENVIRONMENTS:
                    named = environment.group(1) if environment else ""
                    return f"the environment {named!r} is not allowed" if named else f"'\\{name}' needs an environment"
                position = environment.end()
                if name == "begin":
                    environments.append(environment.group(1))
                elif not environments or environments.pop() != environment.group(1):
                    return f"'\\end{{{environment.group(1)}}}' closes an environment that was not opened"
            continue
        position += 1
    if depth:
        return "a '{' is never closed"
    if environments:
        return f"the environment {environments[-1]!r} is never closed"
    return ""
