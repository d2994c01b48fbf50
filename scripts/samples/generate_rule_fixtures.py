#!/usr/bin/python3
"""Generates the positive and negative fixtures of CadSight's rule items (issue 13).

Run with the Debian ezdxf:  /usr/bin/python3 scripts/samples/generate_rule_fixtures.py <out-dir>

`clean.dxf` is one GB A3 sheet that follows every rule: inner border inside the GB/T 14689
margins with zone labels and centring marks, a complete GB/T 10609.1 title block in 长仿宋
(gbenor + gbcbig), layers per GB/T 18229 line kind, a part with centre lines and a true
dimension. It is the negative fixture of every rule. Each `<ITEM>.dxf` plants one defect for
that item (the positive fixture); `template.dxf` has the tables and no entity; `SET-001.neg.dxf` is a correct two-sheet drawing (a
near miss for the numbering rule); `titleblock_text_only.dxf` is a title block of lines and
texts without border or block (frame detection). Every file is audited by ezdxf; the manifest (JSON on stdout)
lists file, item and the audit result. Output is byte-stable (fixed metadata).
"""
import json
import math
import os
import sys

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import ezdxf

ezdxf.options.write_fixed_meta_data_for_testing = True
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)

LAYERS = [
    ("图框", "Continuous", 50), ("粗实线", "Continuous", 50), ("细实线", "Continuous", 25),
    ("中心线", "CENTER", 25), ("虚线", "HIDDEN", 25), ("尺寸线", "Continuous", 25), ("文字", "Continuous", 25),
]


def title_block(msp, dx, fields):
    """GB/T 10609.1-style block in the lower right of the border (180 mm wide)."""
    rows = [
        [("图名", "title"), ("图号", "drawingNo")], [("比例", "scale"), ("材料", "material")],
        [("设计", "designer"), ("重量", "weight")], [("审核", "checker"), ("日期", "date")],
        [("批准", "approver"), ("版本", "revision")], [("单位名称", "organisation")],
    ]
    for r, row in enumerate(rows):
        y = 56 - 8 * r
        for c, (label, key) in enumerate(row):
            if key not in fields:
                continue
            x = 232 + 98 * c
            text(msp, label, dx + x, y, 3.5)
            text(msp, fields[key], dx + x + 20, y, 3.5)
    if "sheets" in fields:
        text(msp, fields["sheets"], dx + 330, 16, 3.5)
    for y in (10, 66):
        msp.add_line((dx + 230, y), (dx + 410, y), dxfattribs={"layer": "图框"})
    msp.add_line((dx + 230, 10), (dx + 230, 66), dxfattribs={"layer": "图框"})


def text(msp, value, x, y, height, layer="文字", style="GB"):
    msp.add_text(value, dxfattribs={"insert": (x, y), "height": height, "style": style, "layer": layer})


def sheet(msp, dx, fields, centre_lines=True, dimension=True, dim_override=None, border=True, centring_marks=4):
    """One A3 landscape sheet at x offset dx: border, zone labels, centring marks, title block, part."""
    if not border:
        title_block(msp, dx, fields)
        return
    msp.add_lwpolyline([(dx + 10, 10), (dx + 410, 10), (dx + 410, 287), (dx + 10, 287)], close=True, dxfattribs={"layer": "图框"})
    for i, label in enumerate("ABC"):
        text(msp, label, dx + 4, 60 + 90 * i, 3.5)
    for i, label in enumerate("1234"):
        text(msp, label, dx + 60 + 100 * i, 290, 3.5)
    # Centring marks (GB/T 14689): bottom, top, left, right; `centring_marks` keeps the first N.
    for a, b in [((210, 0), (210, 15)), ((210, 282), (210, 297)), ((0, 148.5), (15, 148.5)), ((405, 148.5), (420, 148.5))][:centring_marks]:
        msp.add_line((dx + a[0], a[1]), (dx + b[0], b[1]), dxfattribs={"layer": "图框"})
    title_block(msp, dx, fields)
    # The part: a plate 120 × 120 with a bore, its outline a 24-sided ring, dimensioned.
    for (x1, y1), (x2, y2) in [((60, 100), (180, 100)), ((180, 100), (180, 220)), ((180, 220), (60, 220)), ((60, 220), (60, 100))]:
        msp.add_line((dx + x1, y1), (dx + x2, y2), dxfattribs={"layer": "粗实线"})
    for i in range(24):
        a1, a2 = 2 * math.pi * i / 24, 2 * math.pi * (i + 1) / 24
        msp.add_line((dx + 120 + 45 * math.cos(a1), 160 + 45 * math.sin(a1)), (dx + 120 + 45 * math.cos(a2), 160 + 45 * math.sin(a2)), dxfattribs={"layer": "粗实线"})
    msp.add_circle((dx + 120, 160), 30, dxfattribs={"layer": "粗实线"})
    if centre_lines:
        msp.add_line((dx + 85, 160), (dx + 155, 160), dxfattribs={"layer": "中心线"})
        msp.add_line((dx + 120, 125), (dx + 120, 195), dxfattribs={"layer": "中心线"})
    if dimension:
        dim = msp.add_linear_dim(base=(dx + 120, 85), p1=(dx + 60, 100), p2=(dx + 180, 100), dimstyle="GB", override=dim_override or {}, dxfattribs={"layer": "尺寸线"})
        dim.render()
        # AutoCAD stores the measurement (group 42); ezdxf leaves it out unless told.
        dim.dimension.dxf.actual_measurement = 120.0
    text(msp, "技术要求：未注倒角 C1。", dx + 40, 60, 5)


FIELDS = {
    "title": "法兰盘", "drawingNo": "CS-1001", "scale": "1:1", "material": "Q235", "designer": "张工", "weight": "1.2kg",
    "checker": "李工", "date": "2026-11-30", "approver": "王工", "revision": "A", "organisation": "CadSight", "sheets": "共 1 张 第 1 张",
}


def new_doc(centre_linetype="CENTER", dimtxt=3.5):
    doc = ezdxf.new("R2010", setup=True)
    doc.units = ezdxf.units.MM
    doc.header["$INSUNITS"] = 4
    doc.styles.new("GB", dxfattribs={"font": "gbenor.shx", "bigfont": "gbcbig.shx", "width": 0.7})
    for name, linetype, lineweight in LAYERS:
        lt = centre_linetype if name == "中心线" else linetype
        doc.layers.new(name, dxfattribs={"linetype": lt, "lineweight": lineweight, "color": 7})
    doc.dimstyles.new("GB", dxfattribs={"dimtxt": dimtxt, "dimasz": 3, "dimtxsty": "GB", "dimdec": 0, "dimexo": 1, "dimexe": 2})
    return doc


def build(name, item, fields=FIELDS, sheets=1, doc_args=None, extra=None, **sheet_args):
    doc = new_doc(**(doc_args or {}))
    msp = doc.modelspace()
    for i in range(sheets):
        f = fields[i] if isinstance(fields, list) else fields
        sheet(msp, 450 * i, f, **sheet_args)
    if extra:
        extra(msp)
    path = os.path.join(OUT, name)
    doc.saveas(path, encoding="utf-8")
    audit = ezdxf.readfile(path).audit()
    return {"file": name, "item": item, "auditErrors": len(audit.errors), "auditFixes": len(audit.fixes)}


def without(*keys):
    return {k: v for k, v in FIELDS.items() if k not in keys}


manifest = [
    build("clean.dxf", None),
    build("DIM-002.dxf", "DIM-002", dim_override={"dimlfac": 100}),
    build("SET-001.dxf", "SET-001", sheets=2, fields=[dict(FIELDS, sheets="共 2 张 第 1 张"), dict(FIELDS, title="法兰盖", sheets="共 2 张 第 1 张")]),
    build("SET-001.neg.dxf", None, sheets=2, fields=[dict(FIELDS, sheets="共 2 张 第 1 张"), dict(FIELDS, title="法兰盖", drawingNo="CS-1002", sheets="共 2 张 第 2 张")]),
    build("LAY-002.dxf", "LAY-002", doc_args={"centre_linetype": "Continuous"}),
    build("TXT-002.dxf", "TXT-002", extra=lambda msp: text(msp, "去毛刺", 40, 50, 5, style="Standard")),
    build("SCL-001.dxf", "SCL-001", fields=dict(FIELDS, scale="1:3.5")),
    build("TB-002.dxf", "TB-002", fields=without("material", "weight")),
    build("DIM-003.dxf", "DIM-003", dimension=False),
    build("GEO-004.dxf", "GEO-004", centre_lines=False),
    build("DIM-004.dxf", "DIM-004", doc_args={"dimtxt": 1.8}),
    build("GEO-003.dxf", "GEO-003", extra=lambda msp: msp.add_circle((700, 150), 20, dxfattribs={"layer": "粗实线"})),
    build("DXF-001.dxf", "DXF-001"),
    # SHT-002: the left and right centring marks are missing.
    build("SHT-002.dxf", "SHT-002", centring_marks=2),
    # Frames (issue 17): a title block drawn as lines and texts only, no border and no block.
    build("titleblock_text_only.dxf", None, border=False),
    # The review evaluation's template (issue 25): these tables and layouts, no entity; its sheets
    # are written onto it by the project's DXF writer (scripts/eval/review).
    build("template.dxf", None, sheets=0),
]
# DXF-001's defect is what a reader must repair: data after the EOF marker (written after the audit).
with open(os.path.join(OUT, "DXF-001.dxf"), "a", encoding="utf-8") as f:
    f.write("  0\nLINE\n  8\n0\n")
print(json.dumps(manifest, ensure_ascii=False))
