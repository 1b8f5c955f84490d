"""The scenario: plain, validated, frozen data with units in the field names.

A scenario file is TOML with one table per section (``[cluster]``,
``[workload]``, ``[parallel]``, ``[fabric]``, ``[fabric.custom.NAME]`` ...). Each
section is a frozen dataclass (:mod:`model.sections`) whose fields carry their
limits once, in the metadata the GUI builds its controls from (:mod:`model.fields`).
This module holds the whole :class:`Scenario` (its dotted-path access and changes),
turns plain data into a scenario, checked field by field and across fields, and
back; the TOML text and the files are :mod:`model.files`'.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field

from . import catalog
from .errors import ScenarioError, suggest
from .fields import MAX_FABRIC_NAME_CHARS, MAX_NAME_CHARS, check_plain_text, field_names, validate_value
from .sections import SECTIONS, Cluster, Economics, Fabric, FabricSpec, Goals, Parallel, PriceBook, Reliability, \
    Topology, Workload

SCHEMA_VERSION = 1
MAX_FILE_BYTES = 1_000_000
# Fabrics compared at once, and [fabric.custom.NAME] tables: every fabric multiplies the engine's arrays and
# the GUI's uncertainty bands (~19 MB each), and twelve curves are already the most a chart keeps legible.
# A design limit of this tool, not a published figure.
MAX_FABRICS = 12


@dataclass(frozen=True)
class Scenario:
    name: str = "Untitled"
    description: str = ""
    cluster: Cluster = field(default_factory=Cluster)
    workload: Workload = field(default_factory=Workload)
    parallel: Parallel = field(default_factory=Parallel)
    fabric: Fabric = field(default_factory=Fabric)
    reliability: Reliability = field(default_factory=Reliability)
    topology: Topology = field(default_factory=Topology)
    economics: Economics = field(default_factory=Economics)
    price_book: PriceBook = field(default_factory=PriceBook)
    goals: Goals = field(default_factory=Goals)

    # -- convenience -------------------------------------------------------
    def get(self, path: str):
        """Value at a dotted path: ``"cluster.nodes"``, ``"fabric.custom.roce.latency_us"``."""
        section, _, rest = path.partition(".")
        if section == "fabric" and rest.startswith("custom."):
            _, name, key = rest.split(".", 2)
            spec = self.fabric.custom_dict().get(name)
            return getattr(spec, key) if spec else None
        return getattr(getattr(self, section), rest) if rest else getattr(self, section)

    def replace(self, path: str, value) -> "Scenario":
        """A new, validated scenario with one field changed (``None`` clears an optional field)."""
        return self.replace_many({path: value})

    def replace_many(self, changes: dict) -> "Scenario":
        """A new scenario with several fields changed at once, validated once (a preset, a plan)."""
        d = scenario_to_dict(self)
        for path, value in changes.items():
            section, _, key = path.partition(".")
            if section in ("name", "description") and not key:
                d[section] = value
            elif section == "fabric" and key.startswith("custom."):
                _, name, fkey = key.split(".", 2)
                table = d.setdefault("fabric", {}).setdefault("custom", {}).setdefault(name, {})
                if value is None:
                    table.pop(fkey, None)
                    if not table:
                        d["fabric"]["custom"].pop(name)
                else:
                    table[fkey] = value
            else:
                tab = d.setdefault(section, {})
                if value is None:
                    tab.pop(key, None)
                else:
                    tab[key] = value
        return scenario_from_dict(d)

    def with_fabric_compared(self, name: str, on: bool) -> "Scenario":
        """A new, validated scenario comparing fabric ``name`` beside the others (``on``) or no longer: a fabric
        the profile set defines (the published set's ``roce_tuned``) comes with an empty
        ``[fabric.custom.NAME]`` table (every value from the profile), which goes again when it is still empty."""
        d = scenario_to_dict(self)
        fab = d.setdefault("fabric", {})
        compared = [n for n in self.fabric.fabrics if n != name] + ([name] if on else [])
        custom = fab.setdefault("custom", {})
        if on:
            custom.setdefault(name, {})
        elif custom.get(name) == {}:
            custom.pop(name)
        if not custom:
            fab.pop("custom")
        if compared == list(catalog.BUILTIN_FABRICS) + [n for n in custom if n not in catalog.BUILTIN_FABRICS]:
            fab.pop("compare", None)  # the default list: left to the default
        else:
            fab["compare"] = compared
        return scenario_from_dict(d)

    def without_fabric_override(self, name: str) -> "Scenario":
        custom = tuple((n, s) for n, s in self.fabric.custom if n != name)
        return dataclasses.replace(self, fabric=dataclasses.replace(self.fabric, custom=custom))


# --------------------------------------------------------------------------
# a scenario from plain data, checked field by field and across fields
# --------------------------------------------------------------------------

def _section_from_dict(cls: type, data, path: str, skip=()):
    if not isinstance(data, dict):
        raise ScenarioError(path, data, "a table of keys")
    names = [n for n in field_names(cls) if n not in skip]
    out = {}
    for key, value in data.items():
        if key in skip:
            continue
        if key not in names:
            raise ScenarioError(f"{path}.{key}", value, f"unknown key; allowed: {', '.join(names)}"
                                + suggest(key, names))
        out[key] = validate_value(cls, key, value, f"{path}.{key}")
    return cls(**out)


def scenario_from_dict(data: dict, *, source: str | None = None) -> Scenario:
    """Build and validate a scenario from plain data (a parsed TOML document)."""
    try:
        return _scenario_from_dict(migrate(dict(data)))
    except ScenarioError as err:
        raise (err.with_source(source) if source else err) from None


def _scenario_from_dict(data: dict) -> Scenario:
    allowed_top = ["schema_version", "name", "description", *SECTIONS]
    for key in data:
        if key not in allowed_top:
            raise ScenarioError(key, data[key], "unknown section; allowed: " + ", ".join(allowed_top)
                                + suggest(key, allowed_top))
    name = data.get("name", "Untitled")
    desc = data.get("description", "")
    for key, val in (("name", name), ("description", desc)):
        if not isinstance(val, str):
            raise ScenarioError(key, val, "text")
    check_plain_text("name", name, MAX_NAME_CHARS, allow="\n\t")
    check_plain_text("description", desc, MAX_FILE_BYTES, allow="\n\t")
    kwargs = {}
    for sec, cls in SECTIONS.items():
        if sec == "fabric":
            continue
        kwargs[sec] = _section_from_dict(cls, data.get(sec, {}), sec)
    kwargs["fabric"] = _fabric_from_dict(data.get("fabric", {}))
    scen = Scenario(name=name, description=desc, **kwargs)
    check_consistency(scen)
    return scen


def _fabric_from_dict(data) -> Fabric:
    if not isinstance(data, dict):
        raise ScenarioError("fabric", data, "a table of keys")
    base = _section_from_dict(Fabric, {k: v for k, v in data.items() if k not in ("custom", "compare")}, "fabric")
    custom_raw = data.get("custom", {})
    if not isinstance(custom_raw, dict):
        raise ScenarioError("fabric.custom", custom_raw, "tables [fabric.custom.NAME]")
    if len(custom_raw) > MAX_FABRICS:
        raise ScenarioError("fabric.custom", f"{len(custom_raw)} fabrics", f"at most {MAX_FABRICS} tables "
                                                                           "[fabric.custom.NAME]")
    custom = []
    for name, table in custom_raw.items():
        if len(name) > MAX_FABRIC_NAME_CHARS:
            raise ScenarioError("fabric.custom", name, f"a fabric name of at most {MAX_FABRIC_NAME_CHARS} characters "
                                                       "(as for a label)")
        path = f"fabric.custom.{name}"
        if not name.replace("_", "").replace("-", "").isalnum():
            raise ScenarioError(path, name, "a name of letters, digits, '-' and '_'")
        spec = _section_from_dict(FabricSpec, table, path)
        # a name the profile set defines (its four fabrics, and e.g. the published set's roce_tuned) brings its values
        if spec.transport is None and name not in catalog.profile_set(base.profile_set)["fabrics"]:
            raise ScenarioError(f"{path}.transport", None,
                                "a user-defined fabric needs transport = tcp, roce, iwarp or infiniband")
        custom.append((name, spec))
    compare = data.get("compare")
    known = list(catalog.BUILTIN_FABRICS) + [n for n, _ in custom]
    if compare is not None:
        if not isinstance(compare, list) or not compare or not all(isinstance(c, str) for c in compare):
            raise ScenarioError("fabric.compare", compare, "a non-empty list of fabric names")
        for c in compare:
            if c not in known:
                raise ScenarioError("fabric.compare", c, "one of " + ", ".join(known) + suggest(c, known))
        if len(set(compare)) != len(compare):
            raise ScenarioError("fabric.compare", compare, "each fabric once")
        compare = tuple(compare)
    fab = dataclasses.replace(base, custom=tuple(custom), compare=compare)
    if len(fab.fabrics) > MAX_FABRICS:
        raise ScenarioError("fabric.compare", f"{len(fab.fabrics)} fabrics",
                            f"at most {MAX_FABRICS} fabrics compared at once (list them in fabric.compare)")
    if fab.focus is not None and fab.focus not in fab.fabrics:
        raise ScenarioError("fabric.focus", fab.focus, "one of " + ", ".join(fab.fabrics)
                            + suggest(fab.focus, fab.fabrics))
    return fab


MOE_ONLY_FIELDS = (("workload", "shared_experts", 0), ("workload", "dense_layers", 0),
                   ("workload", "dense_ffn_hidden", None), ("workload", "expert_imbalance", None),
                   ("workload", "max_routed_nodes", None), ("parallel", "expert_tp", None))
MLA_FIELDS = ("q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")


def _check_moe_fields(s: Scenario) -> None:
    """Mixture-of-experts and latent-attention fields that only mean something together with others."""
    w, p = s.workload, s.parallel
    moe = (w.experts or 1) > 1
    for section, name, default in MOE_ONLY_FIELDS:
        value = getattr(getattr(s, section), name)
        if value != default and not moe:
            raise ScenarioError(f"{section}.{name}", value, "left out for a dense model (it needs experts > 1)")
    if w.layers is not None and w.dense_layers >= w.layers:
        raise ScenarioError("workload.dense_layers", w.dense_layers, f"fewer than layers = {w.layers}")
    if w.dense_ffn_hidden is not None and w.dense_layers == 0:
        raise ScenarioError("workload.dense_ffn_hidden", w.dense_ffn_hidden, "left out when dense_layers = 0")
    if p.expert_tp is not None and p.expert_tp > s.cluster.gpus_per_node:
        raise ScenarioError("parallel.expert_tp", p.expert_tp,
                            f"at most gpus_per_node = {s.cluster.gpus_per_node} (the experts' tensor parallelism "
                            "stays inside one node)")
    if w.kv_lora_rank is None:
        for name in MLA_FIELDS:
            if getattr(w, name) is not None:
                raise ScenarioError(f"workload.{name}", getattr(w, name),
                                    "left out without kv_lora_rank (it sets multi-head latent attention)")
    elif w.kv_heads is not None and w.heads is not None and w.kv_heads != w.heads:
        raise ScenarioError("workload.kv_heads", w.kv_heads,
                            f"left out or heads = {w.heads} with kv_lora_rank (latent attention expands keys and "
                            "values for every head)")


def check_consistency(s: Scenario) -> None:
    """Cross-field checks that need the catalogue."""
    catalog.gpu(s.cluster.gpu)
    w, p = s.workload, s.parallel
    given = [w.layers is not None, w.hidden is not None, w.heads is not None]
    if any(given) and not all(given):
        missing = [n for n, g in zip(("layers", "hidden", "heads"), given) if not g][0]
        raise ScenarioError(f"workload.{missing}", None,
                            "give layers, hidden and heads together, or none (derived from params_b)")
    if w.hidden is not None and w.hidden % w.heads:
        raise ScenarioError("workload.heads", w.heads, f"a divisor of hidden = {w.hidden}")
    if w.kv_heads is not None and w.heads is not None and (w.kv_heads > w.heads or w.heads % w.kv_heads):
        raise ScenarioError("workload.kv_heads", w.kv_heads, f"a divisor of heads = {w.heads}")
    if w.precision == "fp8" and "peak_fp8_tflops" not in catalog.gpu(s.cluster.gpu):
        raise ScenarioError("workload.precision", w.precision,
                            f"bf16: {s.cluster.gpu} has no FP8 tensor cores (FP8 needs H100, H200 or B200)")
    if w.fp8_activations and w.precision != "fp8":
        raise ScenarioError("workload.fp8_activations", "true", "false with precision = bf16 (FP8 activation "
                                                                 "caching needs precision = fp8)")
    if w.grad_precision == "fp8" and w.precision != "fp8":
        raise ScenarioError("workload.grad_precision", w.grad_precision,
                            "bf16 or fp32 with precision = bf16 (FP8 gradients need precision = fp8)")
    experts = w.experts or 1
    if w.top_k is not None and w.top_k > experts:
        raise ScenarioError("workload.top_k", w.top_k, f"at most experts = {experts}")
    if p.ep is not None and experts % p.ep:
        raise ScenarioError("parallel.ep", p.ep, f"a divisor of experts = {experts}")
    _check_moe_fields(s)
    if p.cp is not None and p.cp > 1 and w.seq_len % (2 * p.cp):
        raise ScenarioError("parallel.cp", p.cp, f"a cp with 2 × cp dividing seq_len = {w.seq_len} (ring attention "
                                                 "splits each sequence into 2 × cp load-balanced chunks)")
    if p.distributed_optimizer is not None and p.zero_stage is not None \
            and p.distributed_optimizer != (p.zero_stage >= 1):
        raise ScenarioError("parallel.distributed_optimizer", p.distributed_optimizer,
                            f"{'true' if p.zero_stage >= 1 else 'false'} with zero_stage = {p.zero_stage}, "
                            "or left out (zero_stage ≥ 1 shards the optimizer)")
    if p.resolved_mode == "explicit":
        tp, pp, cp = p.tp or 1, p.pp or 1, p.cp or 1
        gpus = s.cluster.nodes * s.cluster.gpus_per_node
        if gpus % (tp * pp * cp):
            raise ScenarioError("parallel.tp", tp, f"tp × pp × cp = {tp * pp * cp} must divide the {gpus} GPUs "
                                                  f"({s.cluster.nodes} nodes × {s.cluster.gpus_per_node}); "
                                                  f"dp is derived as GPUs / (tp × pp × cp)")
        dp = gpus // (tp * pp * cp)
        if w.global_batch % dp:
            raise ScenarioError("workload.global_batch", w.global_batch,
                                f"a multiple of the data-parallel degree {dp}")
        if w.micro_batch is not None and (w.global_batch // dp) % w.micro_batch:
            raise ScenarioError("workload.micro_batch", w.micro_batch,
                                f"a divisor of the {w.global_batch // dp} sequences each data-parallel rank gets")
        if w.heads is not None and w.heads % tp:
            raise ScenarioError("parallel.tp", tp, f"a divisor of heads = {w.heads}")
        if w.kv_heads is not None and w.kv_heads % tp:
            raise ScenarioError("parallel.tp", tp, f"a divisor of kv_heads = {w.kv_heads}")
        if w.layers is not None and pp > w.layers:
            raise ScenarioError("parallel.pp", pp, f"at most layers = {w.layers}")
        if pp == 1 and p.virtual_stages is not None and p.virtual_stages > 1:
            raise ScenarioError("parallel.virtual_stages", p.virtual_stages,
                                "1 or left out when pp = 1: interleaving splits a pipeline stage, so it needs "
                                "pp ≥ 2 (Narayanan et al., SC'21)")
    elif p.tp is not None or p.pp is not None:
        raise ScenarioError("parallel.mode", p.mode, "'explicit' when tp or pp is given (or remove tp/pp)")
    for sec, a, b in (("economics", "electricity_cny_per_kwh", "electricity_usd_per_kwh"),
                      ("goals", "budget_cny", "budget_usd")):
        obj = getattr(s, sec)
        if getattr(obj, a) is not None and getattr(obj, b) is not None:
            raise ScenarioError(f"{sec}.{b}", getattr(obj, b), f"left out when {sec}.{a} is given (one currency)")
    for name, spec in s.fabric.custom:
        nics = spec.nics_per_node
        if isinstance(nics, str) and nics != "per_gpu":
            raise ScenarioError(f"fabric.custom.{name}.nics_per_node", nics, "a whole number or \"per_gpu\"")
        transport = spec.transport or catalog.profile_set(s.fabric.profile_set)["fabrics"].get(name, {}).get(
            "transport")
        if (spec.optic_price_usd is None) != (spec.cable_price_usd is None):
            given, missing = (("optic", "cable") if spec.cable_price_usd is None else ("cable", "optic"))
            raise ScenarioError(f"fabric.custom.{name}.{missing}_price_usd", None,
                                f"a price given with {given}_price_usd (a link is priced as its cable and optics "
                                "together, or as link_price_usd)")
        if spec.sharp and transport != "infiniband":
            raise ScenarioError(f"fabric.custom.{name}.sharp", spec.sharp,
                                f"false or left out for transport {transport}: SHARP (NCCL's CollNet) reduces in "
                                "InfiniBand switches; transport = \"infiniband\" to use it")


# --------------------------------------------------------------------------
# schema versions and plain data (the TOML text and the files: model/files.py)
# --------------------------------------------------------------------------

MIGRATIONS: dict[int, typing.Callable[[dict], dict]] = {}


def migrate(data: dict) -> dict:
    """Upgrade a scenario document to the current schema, one version at a time."""
    version = data.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise ScenarioError("schema_version", version, f"a whole number from 1 to {SCHEMA_VERSION}")
    if version > SCHEMA_VERSION:
        raise ScenarioError("schema_version", version,
                            f"at most {SCHEMA_VERSION}: this file was written by a newer Fabric What-If")
    if version < 1:
        raise ScenarioError("schema_version", version, f"a whole number from 1 to {SCHEMA_VERSION}")
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["schema_version"] = version
    data.pop("schema_version", None)
    return data


def _spec_to_dict(spec) -> dict:
    return {f.name: getattr(spec, f.name) for f in dataclasses.fields(spec) if getattr(spec, f.name) is not None}


def scenario_to_dict(s: Scenario) -> dict:
    """Plain data for TOML (``None`` fields left out); round-trips through :func:`scenario_from_dict`."""
    out: dict = {"schema_version": SCHEMA_VERSION, "name": s.name}
    if s.description:
        out["description"] = s.description
    for sec in SECTIONS:
        obj = getattr(s, sec)
        d = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)
             if f.name != "custom" and getattr(obj, f.name) is not None}
        if sec == "fabric":
            if s.fabric.compare is not None:
                d["compare"] = list(s.fabric.compare)
            if s.fabric.custom:
                d["custom"] = {n: _spec_to_dict(spec) for n, spec in s.fabric.custom}
        out[sec] = d
    return out
