"""Discord's own OpenAPI document, as the fake Discord's first judge of a request.

`specs/discord-openapi.json.gz` is `specs/openapi.json` of github.com/discord/discord-api-spec
(commit 74fda0fad044407ea280043a03ffc9bc64c4e49e, 2026-07-18; MIT, `discord-openapi.LICENSE`),
gzipped. It is read once per test session. A request is checked as Discord says to read the
document (its README, "Spec conventions"): `oneOf` means one type of the list, as `anyOf`
does; an integer may come as a string of digits, and a snowflake as a JSON integer
(discord.py sends attachment ids as 0, 1 ...).

What the document leaves to the prose of Discord's docs (2,000 characters of content, 6,000
of embeds, five rows of five buttons, 100-character choices ...) is checked by the fake
itself (tests/fakes/discord_api.py).
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC = Path(__file__).parent / "specs" / "discord-openapi.json.gz"
URI = "urn:discord-openapi"
BY_TYPE = "x-member-by-type"  # our keyword: {type value: the union member for it}
_DIGITS = re.compile(r"-?[0-9]+")


class NotInSpec(Exception):
    """A request Discord's API document has no room for (Discord answers 400, or 404/405
    for a route or method it doesn't have)."""


@dataclass(frozen=True)
class Operation:
    template: str  # "/channels/{channel_id}/messages"
    method: str
    pointer: str  # JSON pointer of the operation in the document
    parameters: tuple[dict[str, Any], ...]
    body: str | None  # JSON pointer of its JSON request body's schema
    body_required: bool


@functools.cache
def document() -> dict[str, Any]:
    with gzip.open(SPEC, "rt", encoding="utf-8") as file:
        spec = json.load(file)
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    spec["components"]["schemas"]["SnowflakeType"] = {
        "anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    _by_type(spec, spec["components"]["schemas"])
    return spec


def _by_type(node: Any, schemas: dict[str, Any]) -> None:
    """A union of objects told apart by their `type` (options, components, callbacks) is
    checked against the member its `type` names (our keyword BY_TYPE): the same verdict as
    trying every member (no two share a type), many times faster, and an error that says
    which field is wrong rather than that no member fits."""
    if isinstance(node, list):
        for item in node:
            _by_type(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _by_type(value, schemas)
    if "oneOf" in node:  # "only one type from the list": not "matching only one member"
        node["anyOf"] = node.pop("oneOf")  # (a string of digits is also an integer here)
    members = node.get("anyOf")
    kinds = _kinds(members, schemas) if isinstance(members, list) else None
    if kinds is not None:
        node.pop("anyOf")
        node[BY_TYPE] = {str(kind): member for kind, member in kinds.items()}


def _kinds(members: list[Any], schemas: dict[str, Any]) -> dict[Any, Any] | None:
    """{type value: member} when every member is an object with `type`s of its own."""
    kinds: dict[Any, Any] = {}
    for member in members:
        ref = member.get("$ref", "") if isinstance(member, dict) else ""
        target = schemas.get(ref.rsplit("/", 1)[-1]) if ref.startswith(
            "#/components/schemas/") else None
        enum = ((target or {}).get("properties") or {}).get("type", {}).get("enum")
        if not enum or any(kind in kinds for kind in enum):
            return None
        kinds.update(dict.fromkeys(enum, member))
    return kinds


def _member_by_type(validator: Any, members: dict[str, Any], instance: Any,
                    schema: dict[str, Any]) -> Iterator[ValidationError]:
    """The union member an object's `type` names (BY_TYPE, set by _by_type)."""
    if not validator.is_type(instance, "object"):
        return
    member = members.get(str(instance.get("type")))
    if member is None:
        yield ValidationError(f"type {instance.get('type')!r} is not one of "
                              f"{', '.join(members)}")
        return
    yield from validator.descend(instance, member)


def _integer(checker: Any, instance: Any) -> bool:
    """Discord takes a string of digits where it documents an integer."""
    return jsonschema.Draft202012Validator.TYPE_CHECKER.is_type(instance, "integer") or (
        isinstance(instance, str) and _DIGITS.fullmatch(instance) is not None)


_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, validators={BY_TYPE: _member_by_type},
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _integer))


@functools.cache
def _registry() -> Registry:
    return Registry().with_resource(URI, Resource.from_contents(
        document(), default_specification=DRAFT202012))


@functools.cache
def _validator(pointer: str) -> jsonschema.protocols.Validator:
    return _Validator({"$ref": f"{URI}#{pointer}"}, registry=_registry())


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


@functools.cache
def _operations() -> list[tuple[re.Pattern[str], Operation]]:
    """Every operation, literal routes before ones with parameters where both match
    (`messages/@original` before `messages/{message_id}`)."""
    found = []
    for template, item in document()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
        for method, operation in item.items():
            if method == "parameters":
                continue
            pointer = f"/paths/{_escape(template)}/{method}"
            body = operation.get("requestBody")
            schema = None
            if body and "application/json" in body["content"]:
                schema = f"{pointer}/requestBody/content/application~1json/schema"
            found.append((pattern, Operation(
                template, method.upper(), pointer,
                tuple(item.get("parameters", [])) + tuple(operation.get("parameters", [])),
                schema, bool(body and body.get("required")))))
    found.sort(key=lambda entry: entry[1].template.count("{"))
    return found


def operation(method: str, path: str) -> Operation:
    """The operation of `method` on `path` ("channels/1/messages", under /api/v10)."""
    path = "/" + path.strip("/")
    routes = [op for pattern, op in _operations() if pattern.match(path)]
    if not routes:
        raise NotInSpec(f"{method} /{path.strip('/')}: no such route in Discord's API")
    for op in routes:
        if op.method == method:
            return op
    raise NotInSpec(f"{method} /{path.strip('/')}: method not allowed")


def check(method: str, path: str, query: dict[str, str], body: Any) -> Operation:
    """The request's path and query parameters and its JSON body against the document;
    raises NotInSpec saying what is wrong."""
    op = operation(method, path)
    values = dict(zip(re.findall(r"\{([^}]+)\}", op.template),
                      _path_values(op.template, path), strict=True))
    for index, parameter in enumerate(op.parameters):
        name, where = parameter["name"], parameter["in"]
        given = values.get(name) if where == "path" else query.get(name)
        if given is None:
            if parameter.get("required"):
                raise NotInSpec(f"{op.template}: {name} is required")
            continue
        pointer = _parameter_pointer(op, index)
        _valid(pointer, _typed(given, parameter["schema"]), f"{where} parameter {name}")
    if body is None:
        if op.body_required:
            raise NotInSpec(f"{method} {op.template}: a body is required")
        return op
    if op.body is None:
        raise NotInSpec(f"{method} {op.template}: takes no JSON body")
    _valid(op.body, body, "body")
    return op


def _path_values(template: str, path: str) -> list[str]:
    parts, names = path.strip("/").split("/"), template.strip("/").split("/")
    return [value for value, name in zip(parts, names, strict=True) if name.startswith("{")]


def _parameter_pointer(op: Operation, index: int) -> str:
    """Where the operation's `index`th parameter's schema is (path-level ones first)."""
    template_pointer = op.pointer.rsplit("/", 1)[0]
    shared = document()["paths"][op.template].get("parameters", [])
    if index < len(shared):
        return f"{template_pointer}/parameters/{index}/schema"
    return f"{op.pointer}/parameters/{index - len(shared)}/schema"


def _typed(value: str, schema: dict[str, Any]) -> Any:
    """A query or path value as the JSON type its schema wants ("true" for a boolean)."""
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "boolean" in kinds and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if ("integer" in kinds or "number" in kinds) and _DIGITS.fullmatch(value):
        return int(value)
    return value


def _valid(pointer: str, instance: Any, what: str) -> None:
    error = best_match(_validator(pointer).iter_errors(instance))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        said = error.message if len(error.message) <= 200 else \
            f"fails {error.validator} {str(error.validator_value)[:100]}"
        raise NotInSpec(f"{what} at {where}: {said}")
