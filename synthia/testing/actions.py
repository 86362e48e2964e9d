"""Actions: the named operations a :class:`~synthia.Monkey` performs on a system under test."""
from __future__ import annotations

import difflib
import functools
import inspect
import keyword
import re
from typing import Any, Callable, Iterable, Mapping

from ..core.checks import check_float, check_values
from ..core.inputs import value_input
from ..core.picker import Picker
from ..engine.report import InvalidTest, safe_repr
from .bundles import Bundle, BundleValue, Consumed, bundles_of

__all__ = ["Action", "action", "initialize", "precondition", "invariant", "NO_EXPECTATION", "call_with_state", "variable_name"]

#: ``expect`` when an action states no expected result.
class _NoExpectation:
    """The ``expect`` of an action that expects nothing: one object, also after pickling (an
    action sent to a Dask worker must still expect nothing)."""

    def __repr__(self) -> str:
        return "NO_EXPECTATION"

    def __reduce__(self) -> str:
        return "NO_EXPECTATION"


NO_EXPECTATION: Any = _NoExpectation()
_RESERVED = ("name", "precondition", "expect", "raises", "weight", "model", "args")


def _parameters(fn: Any) -> set[str] | None:
    """The names ``fn`` takes by name (``None`` when its signature cannot be read)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    return {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def refuse_misspelled_settings(arguments: dict[str, Any], parameters: set[str] | None, owner: str) -> None:
    """Refuse an argument that looks like a misspelled setting of an action.

    An action's keywords are its arguments, and a plain value becomes a constant argument;
    but a keyword close to one of the settings (``precondtion``, ``expected``, ``weights``),
    given something that is not a picker, and that the called function does not take by
    that name (when its signature is known), is far more often a slip than an argument:
    ``TypeError`` with the setting it probably means. A real argument of such a name is
    passed as a picker (``sy.Constant(...)``) or in ``args={...}``.

    >>> refuse_misspelled_settings({"precondtion": lambda m: m.open}, None, "Action('deposit')")
    Traceback (most recent call last):
    ...
    TypeError: Action('deposit') got the keyword 'precondtion' with a function: did you mean 'precondition'? (an argument of that name is given as a picker, such as sy.Constant(...), or in args={'precondtion': ...})
    """
    for key, value in arguments.items():
        if isinstance(value, Picker) or (parameters is not None and key in parameters):
            continue
        close = difflib.get_close_matches(key, _RESERVED, n=1, cutoff=0.8)
        if close:
            what = "a function" if callable(value) and not isinstance(value, type) else f"the value {safe_repr(value)}"
            raise TypeError(
                f"{owner} got the keyword {key!r} with {what}: did you mean {close[0]!r}? (an argument of that name"
                f" is given as a picker, such as sy.Constant(...), or in args={{{key!r}: ...}})"
            )


def _positional_arity(fn: Callable[..., Any]) -> int:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return 2
    return sum(1 for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty)


def call_with_state(fn: Callable[..., Any], system: Any, model: Any) -> Any:
    """``fn(system, model)`` when ``fn`` takes two arguments, else ``fn(model)`` when there is a
    model, else ``fn(system)``: how preconditions and invariants see the state."""
    if _positional_arity(fn) >= 2:
        return fn(system, model)
    return fn(model if model is not None else system)


class Action:
    """A named operation on the system under test, with pickers for its arguments.

    ``fn`` says what to call:

    * a **string**: the method of that name on the system (``acct.deposit(amount=...)``), and,
      with a model, the model's method of the same name, compared in lockstep;
    * a **function** (or unbound method): called as ``fn(system, **args)``;
    * a **bound method**: called as ``fn(**args)`` (for a system that is reset, not rebuilt).

    Arguments are given by keyword: pickers (or plain values, which become constants). The
    keywords ``name``, ``precondition``, ``expect``, ``raises``, ``weight``, ``model`` and
    ``args`` are the action's own settings, which never take a picker: a **picker** given
    under one of those names is an argument of that name (``Action("rename",
    name=sy.Choice("a", "b"))``); pass ``args={...}`` for a plain value under such a name.
    A keyword close to a setting's name (``precondtion``, ``expected``, ``weights``) given
    something other than a picker, that the called function does not take by that name, is
    refused as a probable misspelling ("did you mean 'precondition'?"); give a real
    argument of such a name as a picker or in ``args={...}``.

    * ``precondition``: a callable on the state (the model when there is one, else the
      system; a callable of two parameters gets both) that says whether the action is enabled.
    * ``expect``: the result the system must return, or a callable on the result that must
      hold (a postcondition).
    * ``raises``: exception types the system may raise here (an expected error, not a bug).
    * ``weight``: how often the action is chosen among the enabled ones (default 1).
    * ``model``: what the model does instead (a function ``f(model, **args)``, a method name,
      or ``False`` for no lockstep); by default the model's method of the same name when
      ``fn`` is a name.

    >>> import synthia as sy
    >>> deposit = Action("deposit", amount=sy.RandomInteger(1, 100), precondition=lambda m: m.open)
    >>> deposit
    Action('deposit', amount=RandomInteger(1, 100), precondition=<lambda>)
    """

    def __init__(
        self,
        fn: str | Callable[..., Any],
        *,
        name: "str | Picker[Any] | None" = None,
        precondition: Callable[..., Any] | None = None,
        expect: Any = NO_EXPECTATION,
        raises: type[BaseException] | tuple[type[BaseException], ...] = (),
        weight: float = 1.0,
        model: str | Callable[..., Any] | bool | None = None,
        args: dict[str, Any] | None = None,
        target: Bundle | None = None,
        initialize: bool = False,
        **arguments: Any,
    ) -> None:
        if not (isinstance(fn, str) or callable(fn)):
            raise TypeError(f"fn must be a method name or a callable, got {fn!r} ({type(fn).__name__})")
        refuse_misspelled_settings(arguments, None if isinstance(fn, str) else _parameters(fn), f"Action({fn!r})" if isinstance(fn, str) else f"Action({getattr(fn, '__name__', fn)})")
        # A setting never takes a picker: a picker under a setting's name is an argument.
        settings = {"name": name, "precondition": precondition, "expect": expect, "raises": raises, "weight": weight, "model": model, "args": args}
        drawn = (Picker, Bundle, Consumed)  # what a setting never takes: an argument's source
        for key, value in settings.items():
            if isinstance(value, drawn):
                arguments[key] = value
        name = None if isinstance(name, drawn) else name
        precondition = None if isinstance(precondition, drawn) else precondition
        expect = NO_EXPECTATION if isinstance(expect, drawn) else expect
        raises = () if isinstance(raises, drawn) else raises
        weight = 1.0 if isinstance(weight, drawn) else weight
        model = None if isinstance(model, drawn) else model
        args = None if isinstance(args, drawn) else args
        if isinstance(target, (Picker, Consumed)):
            arguments["target"], target = target, None
        if target is not None and not isinstance(target, Bundle):
            raise TypeError(f"target must be a Bundle (sy.Bundle('name')), got {target!r} ({type(target).__name__})")
        if not isinstance(initialize, bool):
            if isinstance(initialize, Picker):
                arguments["initialize"], initialize = initialize, False
            else:
                raise TypeError(f"initialize must be True or False, got {initialize!r}")
        #: The bundle the action's result goes to (``None``: none), and whether the action is
        #: one of those that run once, first, in every trace (Hypothesis's ``initialize``).
        self.target = target
        self.initialize = initialize
        if isinstance(fn, str) and not fn.isidentifier():
            raise ValueError(f"fn must be a method name (an identifier), got {fn!r}")
        self.fn = fn
        self.name: str = name or (fn if isinstance(fn, str) else str(getattr(fn, "__name__", type(fn).__name__)))
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty string, got {name!r}")
        if precondition is not None and not callable(precondition):
            raise TypeError(f"precondition must be callable, got {precondition!r}")
        self.precondition = precondition
        self.expect = expect
        raised = raises if isinstance(raises, tuple) else (raises,)
        for r in raised:
            if not (isinstance(r, type) and issubclass(r, BaseException)):
                raise TypeError(f"raises must be exception types, got {raises!r}")
        self.raises: tuple[type[BaseException], ...] = raised
        self.weight = check_float(weight, "weight")
        if not self.weight > 0:
            raise ValueError(f"weight must be positive, got {weight!r}")
        if model is not None and not isinstance(model, (bool, str)) and not callable(model):
            raise TypeError(f"model must be a function, a method name or False, got {model!r}")
        if model is True:
            raise ValueError("model=True is not a model: give a function, a method name, or False")
        self.model = model
        if args is not None and not isinstance(args, Mapping):
            raise TypeError(f"args must be a dict of argument names to pickers or values, got {args!r} ({type(args).__name__})")
        merged = dict(args or {})
        for key in arguments:
            if key in merged:
                raise ValueError(f"argument {key!r} is given twice (in args and as a keyword)")
        merged.update(arguments)
        #: The arguments drawn from bundles: name -> (bundle, whether it consumes the value).
        self.bundled = bundles_of(merged)
        #: Every argument's name, in order; :attr:`args` has the pickers of those not drawn from a bundle.
        self.argument_names = tuple(merged)
        self.args: dict[str, Picker[Any]] = {k: value_input(v, k) for k, v in merged.items() if k not in self.bundled}
        #: How the arguments reach the called signature, per system type (see :meth:`binding`).
        self._bindings: dict[Any, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._last_binding: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def __copy__(self) -> "Action":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "Action":
        # An action is a description: copies of a wiring share it (a bound method inside it
        # must keep its object, and the argument pickers are copied per trace anyway).
        return self

    # -- what the monkey calls --------------------------------------------------------------
    def enabled(self, system: Any, model: Any, settle: Callable[[Any], Any] | None = None) -> bool:
        """Whether the precondition holds in this state (always, without one); ``settle``
        awaits a precondition that is a coroutine function (an async system's)."""
        if self.precondition is None:
            return True
        holds = call_with_state(self.precondition, system, model)
        return bool(settle(holds) if settle is not None else holds)

    def run(self, system: Any, args: dict[str, Any]) -> Any:
        """Perform the action on the system, each argument passed the way the called
        signature takes it (see :meth:`binding`)."""
        if isinstance(self.fn, str):
            target = getattr(system, self.fn)
            key: Any = type(system)
        elif inspect.ismethod(self.fn) and not isinstance(self.fn.__self__, type):
            target, key = self.fn, None
        else:
            target, key = functools.partial(self.fn, system), None
        return self._call(target, args, key, shown=True)

    def _call(self, target: Callable[..., Any], args: dict[str, Any], key: Any, shown: bool = False) -> Any:
        binding = self._bindings.get(key)
        if binding is None:
            binding = self._bindings[key] = self.binding(target)
        if shown:
            self._last_binding = binding  # the program prints the call the way it was made
        positional, keyword = binding
        if self.bundled:  # the values the bundles held, not the variables a program names
            args = {k: v.value if isinstance(v, BundleValue) else v for k, v in args.items()}
        if not positional:
            return target(**args)
        return target(*[args[name] for name in positional], **{name: args[name] for name in keyword})

    def binding(self, target: Callable[..., Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """How the arguments reach ``target``: the names passed positionally (in order) and
        those passed by keyword. A parameter that is positional-only takes its argument by
        position (``dict.get(key, /)``), and so does a callable without a signature (a
        builtin such as ``set.add`` or ``OrderedDict.update``, which would take a keyword as
        a key); an argument no parameter takes raises :class:`~synthia.testing.InvalidTest`
        naming it."""
        names = list(self.argument_names)
        try:
            parameters = inspect.signature(target).parameters
        except (TypeError, ValueError):
            return tuple(names), ()
        kinds = inspect.Parameter
        slots = [n for n, q in parameters.items() if q.kind is kinds.POSITIONAL_ONLY]
        star = any(q.kind is kinds.VAR_POSITIONAL for q in parameters.values())
        positional: list[str] = []
        keyword: list[str] = []
        for name in names:
            parameter = parameters.get(name)
            if parameter is not None and parameter.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY):
                keyword.append(name)
            elif parameter is not None and parameter.kind is kinds.POSITIONAL_ONLY:
                positional.append(name)
            elif len(positional) < len(slots) or star:
                positional.append(name)  # a positional-only slot the name cannot reach by keyword
            elif any(q.kind is kinds.VAR_KEYWORD for q in parameters.values()):
                keyword.append(name)
            else:
                raise InvalidTest(
                    f"the action {self.name!r} passes the argument {name!r}, which {getattr(target, '__qualname__', target)!r}"
                    f"{inspect.signature(target)} has no parameter for"
                )
        if positional:
            # Positional arguments go in the order of their parameters.
            order = {n: i for i, n in enumerate(parameters)}
            positional.sort(key=lambda n: order.get(n, len(order)))
        return tuple(positional), tuple(keyword)

    def model_step(self, model: Any) -> Callable[[dict[str, Any]], Any] | None:
        """The model's counterpart, bound to ``model``: a function of the arguments' dict,
        which it passes as the counterpart's signature takes them (``None``: this action has
        no lockstep)."""
        if model is None or self.model is False:
            return None
        if self.model is None:
            if not isinstance(self.fn, str):
                return None
            method = getattr(model, self.fn, None)
            if not callable(method):
                return None
            target: Callable[..., Any] = method
        elif isinstance(self.model, str):
            target = getattr(model, self.model)
        else:
            target = functools.partial(self.model, model)  # type: ignore[arg-type]
        key = ("model", type(model))
        return lambda args: self._call(target, args, key)

    def call_text(self, target: str, args: dict[str, Any], name: str | None = None, full: bool = False) -> str:
        """The line of Python that performs the action on ``target`` (a variable name), its
        arguments passed as the last call passed them; a function action is called by
        ``name`` (its ``__name__`` by default). ``full``: values are never cut (a program's
        text), else a value's text is cut after 10,000 characters (a message's)."""
        positional, _ = self._last_binding
        shown = _arguments_text(args, positional, full)
        if isinstance(self.fn, str):
            return f"{target}.{self.fn}({shown})"
        if inspect.ismethod(self.fn) and not isinstance(self.fn.__self__, type):
            return f"{target}.{self.fn.__name__}({shown})"
        name = name or getattr(self.fn, "__name__", "action")
        return f"{name}({target}{', ' + shown if shown else ''})"

    def model_text(self, target: str, args: dict[str, Any], name: str | None = None, full: bool = False) -> str:
        """The line of Python that performs the model's counterpart on ``target`` (a function
        counterpart called by ``name``; ``full`` as in :meth:`call_text`)."""
        positional = next((b[0] for key, b in self._bindings.items() if isinstance(key, tuple) and key[0] == "model"), ())
        shown = _arguments_text(args, positional, full)
        if self.model is False:
            return "pass  # no counterpart on the model"
        if self.model is None or isinstance(self.model, str):
            method = self.model if isinstance(self.model, str) else self.fn
            if isinstance(method, str):
                return f"{target}.{method}({shown})"
            return "pass  # no counterpart on the model"
        name = name or getattr(self.model, "__name__", "model_step")
        return f"{name}({target}{', ' + shown if shown else ''})"

    def __repr__(self) -> str:
        parts = [repr(self.name) if isinstance(self.fn, str) else getattr(self.fn, "__name__", repr(self.fn))]
        if not isinstance(self.fn, str) and self.name != getattr(self.fn, "__name__", None):
            parts.append(f"name={self.name!r}")
        for k in self.argument_names:
            bundle = self.bundled.get(k)
            shown = self.args[k] if bundle is None else (Consumed(bundle[0]) if bundle[1] else bundle[0])
            parts.append(f"{k}={shown!r}")
        if self.target is not None:
            parts.append(f"target={self.target!r}")
        if self.initialize:
            parts.append("initialize=True")
        if self.precondition is not None:
            parts.append(f"precondition={getattr(self.precondition, '__name__', 'precondition')}")
        if self.raises:
            parts.append(f"raises={tuple(r.__name__ for r in self.raises)}")
        if self.weight != 1.0:
            parts.append(f"weight={self.weight:g}")
        return f"Action({', '.join(parts)})"


def _arguments_text(args: dict[str, Any], positional: tuple[str, ...], full: bool) -> str:
    """Arguments as a call shows them: a program's in full, with a bundle's value as its
    variable; a message's cut after 10,000 characters, with a bundle's value as it is."""
    limit = None if full else 10_000

    def shown(value: Any) -> str:
        if isinstance(value, BundleValue):
            return value.variable if full else safe_repr(value.value, limit)
        return safe_repr(value, limit)

    return ", ".join([shown(args[k]) for k in positional if k in args] + [f"{k}={shown(v)}" for k, v in args.items() if k not in positional])


_ACTION_MARK = "__synthia_action__"
_INVARIANT_MARK = "__synthia_invariant__"
_PRECONDITION_MARK = "__synthia_precondition__"


def action(
    *,
    precondition: Callable[..., Any] | None = None,
    expect: Any = NO_EXPECTATION,
    raises: type[BaseException] | tuple[type[BaseException], ...] = (),
    weight: float = 1.0,
    args: dict[str, Any] | None = None,
    target: Bundle | None = None,
    **arguments: Any,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a method of a test class as an action of a :class:`~synthia.Monkey`.

    The class is the system under test (and its own model: its methods compare the real
    object with a reference in plain assertions); ``precondition`` receives the instance.
    ``target`` names the :class:`~synthia.Bundle` the method's result goes to; an argument
    given as a bundle (or ``sy.consumes(bundle)``) draws one of its values.
    See :meth:`Monkey.from_class <synthia.Monkey.from_class>` and :func:`synthia.monkey`.
    """

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        refuse_misspelled_settings(arguments, _parameters(method), f"@action on {getattr(method, '__name__', method)}")
        # The settings are checked now, where they are written, not when the Monkey starts.
        Action(
            method if callable(method) else "action", precondition=precondition, expect=expect, raises=raises, weight=weight, args=args, **arguments
        )
        setattr(
            method,
            _ACTION_MARK,
            dict(precondition=precondition, expect=expect, raises=raises, weight=weight, args=args, target=target, initialize=False, arguments=arguments),
        )
        return method

    return mark


def initialize(*, target: Bundle | None = None, args: dict[str, Any] | None = None, **arguments: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a method of a test class as an initializing action: each runs once, first, in every
    trace, in the order the class defines them, with its arguments drawn like any action's
    (Hypothesis's ``initialize``); invariants are checked once they all ran."""

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        setattr(
            method,
            _ACTION_MARK,
            dict(precondition=None, expect=NO_EXPECTATION, raises=(), weight=1.0, args=args, target=target, initialize=True, arguments=arguments),
        )
        return method

    return mark


def precondition(condition: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give an action or an invariant method a precondition (a callable of the instance): the
    action is enabled, the invariant checked, only while it holds (Hypothesis's ``precondition``)."""
    if not callable(condition):
        raise TypeError(f"precondition: condition must be callable (a function of the instance), got {condition!r}")

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        setattr(method, _PRECONDITION_MARK, condition)
        return method

    return mark


def invariant() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a method of a test class as an invariant: checked after every action (it fails by
    raising or returning ``False``)."""

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        setattr(method, _INVARIANT_MARK, True)
        return method

    return mark


def actions_of(cls: type) -> tuple[list[Action], list[Callable[[Any], Any]]]:
    """The actions and invariants a class declares with :func:`action`, :func:`initialize`,
    :func:`invariant` and :func:`precondition` (initializing actions first, in the order the
    class defines them, then the others by name)."""
    found: list[Action] = []
    checks: list[Callable[[Any], Any]] = []
    order = {name: k for k, name in enumerate(_definition_order(cls))}
    for name in dir(cls):
        member = getattr(cls, name, None)
        settings = getattr(member, _ACTION_MARK, None)
        guard = getattr(member, _PRECONDITION_MARK, None)
        if settings is not None:
            found.append(
                Action(
                    name,
                    precondition=settings["precondition"] or guard,
                    expect=settings["expect"],
                    raises=settings["raises"],
                    weight=settings["weight"],
                    args=settings["args"],
                    target=settings["target"],
                    initialize=settings["initialize"],
                    **settings["arguments"],
                )
            )
        if getattr(member, _INVARIANT_MARK, False):
            check = _named(name)
            check.precondition = guard  # type: ignore[attr-defined]
            checks.append(check)
    # Initializers first, in the order the class defines them; the other actions by name.
    found.sort(key=lambda a: (not a.initialize, order.get(a.name, 0) if a.initialize else 0))
    return found, checks


def _definition_order(cls: type) -> list[str]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        names.extend(n for n in vars(klass) if n not in names)
    return names


def _named(name: str) -> Callable[[Any], Any]:
    def check(system: Any) -> Any:
        return getattr(system, name)()

    check.__name__ = name
    check.method_name = name  # type: ignore[attr-defined]
    return check


def check_actions(actions: Iterable[Any]) -> list[Action]:
    """``actions`` as a list, each an :class:`Action` (``TypeError`` naming the first that is not)."""
    out = check_values(actions, "actions")
    for i, a in enumerate(out):
        if not isinstance(a, Action):
            raise TypeError(f"actions[{i}] must be an Action, got {a!r} ({type(a).__name__})")
    if not out:
        raise ValueError("actions must not be empty")
    return out


def variable_name(system: Any) -> str:
    """A program's name for the system -- a factory, or an object -- its class in snake case.

    >>> variable_name(type("LRUCache", (), {})), variable_name(Action("get"))
    ('lru_cache', 'action')
    """
    name = getattr(system, "__name__", None) if isinstance(system, type) or inspect.isfunction(system) else type(system).__name__
    name = name or "system"
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    return snake if snake.isidentifier() and not keyword.iskeyword(snake) and snake not in {"list", "dict", "set", "type", "object"} else "system"
