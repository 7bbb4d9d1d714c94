#!/usr/bin/env python3
"""What CONFIG_PRINTK_INDEX costs in vmlinux, object file by object file.

usage: objsize.py KOUT_WITH KOUT_WITHOUT [DETAILS_FILE]

Both folders are kernel builds (O=) that differ only in PRINTK_INDEX (and the
index's KUnit test), or folders of object files of the same names
(patch-cost.sh). Every object linked into vmlinux (the members of
vmlinux.a and of the lib.a archives, which are thin archives that name the .o
files) is read in both builds and its allocated sections are summed by kind:

  code    SHF_EXECINSTR sections (.text, .init.text, ...)
  rodata  read-only data (.rodata, strings, ...)
  data    writable PROGBITS other than .printk_index
  pi      .printk_index (one 8-byte pointer per entry)
  bss     NOBITS

The index's own objects (kernel/printk/index*.o) and lib/kunit/ are set
apart.  Beyond sizes, the bytes of every code section are compared: with
RELA relocations the bytes of an instruction that refers to a moved symbol
do not change, so equal bytes mean the same instructions.

Prints key=value lines for run-bench.sh; DETAILS_FILE gets one line per
object that differs.
"""
import os
import struct
import subprocess
import sys

SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4
SHT_NOBITS = 8


def sections(path):
    """{name: (kind, size, code_bytes_or_None)} for the ALLOC sections of an ELF64 .o."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:4] != b'\x7fELF' or data[4] != 2:
        raise ValueError(f'{path}: not an ELF64 file')
    e = '<' if data[5] == 1 else '>'
    shoff, = struct.unpack_from(e + 'Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', data, 0x3a)
    hdrs = [struct.unpack_from(e + 'IIQQQQIIQQ', data, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = hdrs[shstrndx][4]

    def name(off):
        end = data.index(b'\0', stroff + off)
        return data[stroff + off:end].decode()

    out = {}
    for h in hdrs:
        sh_name, sh_type, flags, _, off, size = h[:6]
        if not flags & SHF_ALLOC or not size:
            continue
        n = name(sh_name)
        if sh_type == SHT_NOBITS:
            kind = 'bss'
        elif n == '.printk_index':
            kind = 'pi'
        elif flags & SHF_EXECINSTR:
            kind = 'code'
        elif flags & SHF_WRITE:
            kind = 'data'
        else:
            kind = 'rodata'
        body = data[off:off + size] if kind == 'code' else None
        # Sections of one name can repeat (COMDAT groups): keep them apart.
        key, i = n, 1
        while key in out:
            i += 1
            key = f'{n}#{i}'
        out[key] = (kind, size, body)
    return out


def objects(kout):
    """Paths, relative to kout, of the objects linked into vmlinux; in a
    folder that is not a kernel build, every .o file in it."""
    if not os.path.exists(os.path.join(kout, 'vmlinux.a')):
        return sorted(os.path.relpath(os.path.join(d, f), kout)
                      for d, _, files in os.walk(kout)
                      for f in files if f.endswith('.o'))
    objs = []
    for ar in ('vmlinux.a', 'lib/lib.a', 'arch/x86/lib/lib.a'):
        if not os.path.exists(os.path.join(kout, ar)):
            continue
        names = subprocess.run(['ar', 't', ar], cwd=kout, check=True,
                               capture_output=True, text=True).stdout.split()
        objs += names
    # Thin archives name their members relative to the archive's folder.
    return sorted(set(os.path.normpath(o) for o in objs))


def is_index(obj):
    return obj.startswith('kernel/printk/index') or obj.startswith('lib/kunit/')


def totals(secs):
    t = dict(code=0, rodata=0, data=0, pi=0, bss=0)
    for kind, size, _ in secs.values():
        t[kind] += size
    return t


def main():
    with_dir, without_dir = sys.argv[1], sys.argv[2]
    details = open(sys.argv[3], 'w') if len(sys.argv) > 3 else None
    a, b = objects(with_dir), objects(without_dir)
    sa, sb = set(a), set(b)
    sums = {k: dict(code=0, rodata=0, data=0, pi=0, bss=0)
            for k in ('with_other', 'without_other', 'with_index', 'without_index')}
    code_bytes_differ = []  # 'obj:code size delta' of objects whose code bytes differ
    for obj in sorted(sa | sb):
        secs_a = sections(os.path.join(with_dir, obj)) if obj in sa else {}
        secs_b = sections(os.path.join(without_dir, obj)) if obj in sb else {}
        ta, tb = totals(secs_a), totals(secs_b)
        group = 'index' if is_index(obj) else 'other'
        for k in ta:
            sums['with_' + group][k] += ta[k]
            sums['without_' + group][k] += tb[k]
        code_a = {n: s[2] for n, s in secs_a.items() if s[0] == 'code'}
        code_b = {n: s[2] for n, s in secs_b.items() if s[0] == 'code'}
        same_code = code_a == code_b
        if group == 'other' and not same_code:
            code_bytes_differ.append(f'{obj}:{ta["code"] - tb["code"]:+d}')
        if details and (ta != tb or not same_code):
            diff = ' '.join(f'{k}{ta[k] - tb[k]:+d}' for k in ta if ta[k] != tb[k])
            where = 'only-with' if obj not in sb else 'only-without' if obj not in sa else ''
            print(f'{obj} [{group}] {diff or "sizes equal"}'
                  f'{"" if same_code else " code-bytes-differ"} {where}'.rstrip(),
                  file=details)
    w, wo = sums['with_other'], sums['without_other']
    print(f'objects_with={len(sa)} objects_without={len(sb)}')
    for k in ('code', 'rodata', 'data', 'pi', 'bss'):
        print(f'other_{k}_delta={w[k] - wo[k]}')
    print(f'other_code_with={w["code"]} other_code_without={wo["code"]}')
    print(f'other_code_bytes_differ={len(code_bytes_differ)} '
          f'other_code_bytes_differ_objs={",".join(code_bytes_differ) or "-"}')
    iw, iwo = sums['with_index'], sums['without_index']
    for k in ('code', 'rodata', 'data'):
        print(f'index_{k}_delta={iw[k] - iwo[k]}')


if __name__ == '__main__':
    main()
