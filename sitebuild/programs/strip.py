"""How docstrings and comments are stripped: run by the build on pishe's modules
(sitebuild/wheel.py), and in Pyodide on the standard library's, whose syntax only Pyodide's
newer Python may parse (the trace runs this file followed by trace.py)."""
import ast

def stripped(source, filename):
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
    text = ast.unparse(tree) + chr(10)
    if ast.dump(ast.parse(text, filename)) != ast.dump(tree):
        raise ValueError(f"stripping {filename} changed its code")
    return text
