"""A backend's report as text, for `python -m fxlint_capture --backend B` without --json."""


def _where(failure):
    stack = failure.get("user_stack") or []
    if not stack:
        return ""
    f = stack[-1]
    return f"{f['filename']}:{f['lineno']}: "


def _failure_lines(prefix, f):
    lines = [f"{prefix}{_where(f)}{f.get('code') or '(no rule)'} {f.get('summary') or f.get('reason')}"]
    stack = f.get("user_stack") or []
    if stack and stack[-1].get("line"):
        lines.append(f"    {stack[-1]['line']}")
    return lines


def format_report(data):
    lines = [f"Backend: {data['backend']}"]
    if "graph_count" in data:
        lines.append(f"Graph Count: {data['graph_count']}")
        lines.append(f"Graph Break Count: {data['graph_break_count']}")
        lines.append(f"Op Count: {data.get('op_count', 0)}")
        for b in data.get("break_reasons", []):
            lines.extend(_failure_lines("Break: ", b))
    for s in data.get("stages", []):
        if s["ok"]:
            detail = f" ({s['detail']})" if s.get("detail") else ""
            lines.append(f"{s['name']}: ok{detail}")
        else:
            lines.extend(_failure_lines(f"{s['name']}: FAILED: ", s["failure"]))
    lines.append(f"Result: {'ok' if data['ok'] else 'FAILED'}")
    return "\n".join(lines)
