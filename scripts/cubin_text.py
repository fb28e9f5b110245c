"""The code of a cubin, read from its ELF without cuobjdump, for the codegen checks
(scripts/lineinfo_codegen_check.sh, scripts/untraced_codegen_check.sh).

text_sections(path) -> {function: sha256 of its .text section}. Each function is named by its
section name without ".text.", with the hash nvcc puts in an anonymous namespace's mangled name
(_GLOBAL__N__<hex>_) removed, so the same function from two builds of one file has one name.
"""
import hashlib
import re
import struct


def text_sections(path):
    data = open(path, 'rb').read()
    offset, = struct.unpack_from('<Q', data, 0x28)  # e_shoff
    size, count, names_index = struct.unpack_from('<HHH', data, 0x3A)  # e_shentsize, e_shnum, e_shstrndx
    headers = [struct.unpack_from('<IIQQQQIIQQ', data, offset + i * size) for i in range(count)]
    table = headers[names_index]
    names = data[table[4]:table[4] + table[5]]
    sections = {}
    for h in headers:
        name = names[h[0]:names.index(b'\0', h[0])].decode()
        if name.startswith('.text.'):
            key = re.sub(r'_GLOBAL__N__[0-9a-f]+_', '_GLOBAL__N__', name[len('.text.'):])
            sections[key] = hashlib.sha256(data[h[4]:h[4] + h[5]]).hexdigest()
    return sections
