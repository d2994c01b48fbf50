#!/usr/bin/python3
"""Generates the empty GB part-drawing template (resources/drawing/gb_part_template.dxf).

Run with the Debian ezdxf:  /usr/bin/python3 scripts/drawing/generate_gb_template.py [out.dxf]

An R2013 document with no entities: the GB/T 4457.4 layers (粗实线 visible 0.5 mm continuous,
细实线, 虚线 hidden dashed, 中心线 centre chain, 尺寸标注, 剖面线, 文字, 图框), the text style GB
(gbenor.shx with the gbcbig.shx big font, width 0.7) and the dimension style GB (3.5 mm text,
closed filled arrows, no trailing zeros). `cadsight gen drawing` adds the sheet's entities through
the drawing slice's writer. Byte-reproducible (fixed dates and GUIDs).
"""
import os
import sys

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import ezdxf

OUT = sys.argv[1] if len(sys.argv) > 1 else "resources/drawing/gb_part_template.dxf"
ezdxf.options.write_fixed_meta_data_for_testing = True
doc = ezdxf.new("R2013", setup=["linetypes"])
doc.units = ezdxf.units.MM
doc.header["$INSUNITS"] = 4
doc.header["$MEASUREMENT"] = 1
doc.header["$LTSCALE"] = 4.0  # ezdxf CENTER/DASHED are inch patterns: ×4 gives GB-sized dashes in mm
doc.header["$LWDISPLAY"] = 1

doc.styles.new("GB", dxfattribs={"font": "gbenor.shx", "bigfont": "gbcbig.shx", "width": 0.7})
for name, color, linetype, lineweight in [
    ("图框", 7, "Continuous", 50),
    ("粗实线", 7, "Continuous", 50),
    ("细实线", 3, "Continuous", 25),
    ("虚线", 6, "DASHED", 25),
    ("中心线", 1, "CENTER", 25),
    ("尺寸标注", 4, "Continuous", 25),
    ("剖面线", 3, "Continuous", 25),
    ("文字", 2, "Continuous", 25),
]:
    doc.layers.add(name, color=color, linetype=linetype, lineweight=lineweight)

gb = doc.dimstyles.new("GB")
gb.dxf.dimtxsty = "GB"
gb.dxf.dimtxt = 3.5
gb.dxf.dimasz = 3.0
gb.dxf.dimexe = 2.0
gb.dxf.dimexo = 0.0
gb.dxf.dimgap = 1.0
gb.dxf.dimdec = 2
gb.dxf.dimzin = 8
gb.dxf.dimlfac = 1.0
gb.dxf.dimtad = 1
gb.dxf.dimtih = 0
gb.dxf.dimtoh = 0
gb.dxf.dimdsep = ord(".")
gb.dxf.dimclrd = 256
gb.dxf.dimclre = 256
gb.dxf.dimclrt = 256
doc.header["$DIMSTYLE"] = "GB"
doc.header["$TEXTSTYLE"] = "GB"
doc.saveas(OUT)
