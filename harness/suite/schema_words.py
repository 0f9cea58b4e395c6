"""Schema errors in words a fixture author can act on (jsonschema's own messages quote too much)."""

from __future__ import annotations

from typing import Any

from harness.spec.names import did_you_mean
from harness.spec.semver import FORMS
from harness.suite.yamlsafe import quote


def schema_message(error: Any) -> str:
    """A schema error in words a fixture author can act on, quoting at most a little of the input."""
    instance = error.instance
    if error.validator == "additionalProperties":
        allowed = error.schema.get("properties", {})
        extra = [key for key in instance if key not in allowed] if isinstance(instance, dict) else []
        names = ", ".join(quote(key) for key in extra[:3])
        return (f"unexpected key {names}; check the spelling against the schema"
                + (f" (allowed: {', '.join(sorted(allowed))})" if allowed else ""))
    if error.validator == "required":
        return str(error.message)
    if error.validator in ("minItems", "maxItems") and isinstance(instance, list):
        bound = "at least" if error.validator == "minItems" else "at most"
        return f"{len(instance)} items, but {bound} {error.validator_value} are allowed"
    if error.validator == "enum":
        close = did_you_mean(instance, map(str, error.validator_value)) if isinstance(instance, str) else ""
        return f"{quote(instance)} is not one of {', '.join(map(repr, error.validator_value))}{close}"
    if error.validator == "uniqueItems" and isinstance(instance, list):
        seen: list[Any] = []
        for item in instance:
            if item in seen:
                return f"{quote(item)} is listed twice: give each item once"
            seen.append(item)
    if error.validator == "pattern":
        return f"{quote(instance)} is not {pattern_words(str(error.validator_value))}"
    if error.validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return f"{quote(instance)} is not of type {expected}"
    if error.validator in ("anyOf", "oneOf"):
        keys = [form["required"][0] for form in error.validator_value if list(form) == ["required"]]
        if len(keys) == len(error.validator_value):  # each form is one key that must be there
            return f"{quote(instance)} needs one of the keys {', '.join(keys)}"
        return f"{quote(instance)} matches none of the allowed forms: {'; or '.join(map(form_words, error.validator_value))}"
    message = str(error.message)
    return message if len(message) <= 200 else message.replace(repr(instance), quote(instance))


def deepest(error: Any) -> Any:
    """For "none of these forms", the form's own error that went deepest into the value."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        deeper = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
        if len(deeper.absolute_path) <= len(error.absolute_path):
            break  # no form got further than the value itself: say none fits
        error = deeper
    return error


def form_words(form: dict[str, Any]) -> str:
    """One allowed form of a value, in words: ``a list of at least 2 codes``."""
    kind = form.get("type")
    if kind == "array":
        least = f" of at least {form['minItems']}" if "minItems" in form else ""
        item = form.get("items", {})
        what = "codes" if item.get("pattern") == "^[a-z]+(-[a-z]+)*$" else f"{item.get('type', 'item')}s"
        return f"a list{least} {what}"
    if kind == "string" and "pattern" in form:
        return pattern_words(str(form["pattern"]))
    return f"a {kind}" if isinstance(kind, str) else "another form"


def pattern_words(pattern: str) -> str:
    """What a schema pattern asks for, in words."""
    if pattern.endswith("[CDHS]$"):
        return "a card: rank A23456789TJQK then suit CDHS, e.g. QH or TD"
    if pattern == "^[a-z0-9]+([.-][a-z0-9]+)*$":
        return "an id: lower-case letters and digits, in parts joined by . or -, e.g. rummy.meld.q-k-a-run"
    if pattern == "^[a-z]+(-[a-z]+)*$":
        return "a code: lower-case words joined by -, e.g. invalid-meld"
    if "[0-9]+\\.[0-9]+\\.[0-9]+" in pattern:
        return f"a version range: {FORMS}"
    return f"of the form the schema asks for (the pattern {quote(pattern)})"
