# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""A small SPIR-V binary reader for the driver tests (standard library only):
the entry points, the descriptor bindings with their types, block layouts and
array sizes, the push-constant block, the fragment shader's inputs and
outputs, and which instructions the module uses. Enumerant values are those
of the SPIR-V specification, section 3 (spelled out, like interface.cpp)."""

import struct

# Opcodes.
OP_EXT_INST_IMPORT, OP_EXT_INST = 11, 12
OP_ENTRY_POINT, OP_EXECUTION_MODE, OP_CAPABILITY = 15, 16, 17
OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_MATRIX = 20, 21, 22, 23, 24
OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_SAMPLED_IMAGE = 25, 26, 27
OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER = 28, 29, 30, 32
OP_CONSTANT, OP_SPEC_CONSTANT = 43, 50
OP_VARIABLE = 59
OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN = 65, 66
OP_DECORATE, OP_MEMBER_DECORATE = 71, 72

# Decorations.
DEC_BLOCK, DEC_BUFFER_BLOCK, DEC_ROW_MAJOR = 2, 3, 4
DEC_ARRAY_STRIDE, DEC_MATRIX_STRIDE = 6, 7
DEC_BUILTIN, DEC_FLAT, DEC_NOPERSPECTIVE, DEC_CENTROID, DEC_SAMPLE = 11, 14, 13, 16, 17
DEC_LOCATION, DEC_COMPONENT = 30, 31
DEC_BINDING, DEC_DESCRIPTOR_SET, DEC_OFFSET = 33, 34, 35

# Storage classes.
SC_UNIFORM_CONSTANT, SC_INPUT, SC_UNIFORM, SC_OUTPUT = 0, 1, 2, 3
SC_PUSH_CONSTANT, SC_STORAGE_BUFFER = 9, 12

MODEL_VERTEX, MODEL_FRAGMENT, MODEL_GLCOMPUTE = 0, 4, 5
DIM_2D, DIM_SUBPASS = 1, 6
IMAGE_FORMAT_NAMES = {0: None, 3: "r32f", 4: "rgba8"}


class Type:
    def __init__(self, opcode, operands):
        self.opcode = opcode
        self.operands = operands  # the words after the result id


class Module:
    """Reads a SPIR-V binary (bytes); raises ValueError when it is not one."""

    def __init__(self, data):
        if len(data) < 20 or len(data) % 4:
            raise ValueError("not a SPIR-V binary")
        words = struct.unpack("<%dI" % (len(data) // 4), data)
        if words[0] != 0x07230203:
            raise ValueError("not a little-endian SPIR-V binary")
        self.entry_points = []        # (model, id, name)
        self.capabilities = set()
        self.ext_imports = {}         # id -> name
        self.opcodes = set()          # every opcode present
        self.ext_insts = set()        # (import name, instruction number)
        self.types = {}
        self.constants = {}
        self.variables = []           # (id, pointer type id, storage class)
        self.access_chains = []       # (base id, [index ids])
        self.decorations = {}         # id -> {decoration: [literals]}
        self.member_decorations = {}  # (id, member) -> {decoration: [literals]}
        at = 5
        while at < len(words):
            count, opcode = words[at] >> 16, words[at] & 0xFFFF
            if count == 0 or at + count > len(words):
                raise ValueError("malformed instruction at word %d" % at)
            self._read(opcode, list(words[at + 1:at + count]))
            at += count

    @staticmethod
    def _string(operands):
        data = b"".join(struct.pack("<I", w) for w in operands)
        return data.split(b"\0", 1)[0].decode(errors="replace")

    def _read(self, opcode, ops):
        self.opcodes.add(opcode)
        if opcode == OP_ENTRY_POINT:
            self.entry_points.append((ops[0], ops[1], self._string(ops[2:])))
        elif opcode == OP_CAPABILITY:
            self.capabilities.add(ops[0])
        elif opcode == OP_EXT_INST_IMPORT:
            self.ext_imports[ops[0]] = self._string(ops[1:])
        elif opcode == OP_EXT_INST:
            self.ext_insts.add((self.ext_imports.get(ops[2], "?"), ops[3]))
        elif opcode == OP_DECORATE:
            self.decorations.setdefault(ops[0], {})[ops[1]] = ops[2:]
        elif opcode == OP_MEMBER_DECORATE:
            self.member_decorations.setdefault((ops[0], ops[1]), {})[ops[2]] = ops[3:]
        elif opcode in (OP_CONSTANT, OP_SPEC_CONSTANT):
            self.constants[ops[1]] = ops[2] if len(ops) > 2 else 0
        elif opcode == OP_VARIABLE:
            self.variables.append((ops[1], ops[0], ops[2]))
        elif opcode in (OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN):
            self.access_chains.append((ops[2], ops[3:]))
        elif OP_TYPE_BOOL <= opcode <= OP_TYPE_POINTER:
            self.types[ops[0]] = Type(opcode, ops[1:])

    # -- queries ------------------------------------------------------------

    def decoration(self, id_, decoration, default=None):
        literals = self.decorations.get(id_, {}).get(decoration)
        if literals is None:
            return default
        return literals[0] if literals else True

    def member_decoration(self, id_, member, decoration, default=None):
        literals = self.member_decorations.get((id_, member), {}).get(decoration)
        if literals is None:
            return default
        return literals[0] if literals else True

    def pointee(self, pointer_type):
        return self.types[pointer_type].operands[1]

    def has_entry(self, model, name="main"):
        return any(m == model and n == name for m, _, n in self.entry_points)

    def scalar_kind(self, type_id):
        """("float"|"int"|"uint", width, components) of a scalar or vector type; None otherwise."""
        t = self.types.get(type_id)
        components = 1
        if t and t.opcode == OP_TYPE_VECTOR:
            components = t.operands[1]
            t = self.types.get(t.operands[0])
        if t and t.opcode == OP_TYPE_FLOAT:
            return "float", t.operands[0], components
        if t and t.opcode == OP_TYPE_INT:
            return ("int" if t.operands[1] else "uint"), t.operands[0], components
        return None

    def located(self, storage_class):
        """[(location, variable id, pointee type id)] of Location-decorated, non-built-in
        variables of |storage_class|."""
        out = []
        for id_, ptype, sc in self.variables:
            if sc == storage_class and self.decoration(id_, DEC_LOCATION) is not None \
                    and self.decoration(id_, DEC_BUILTIN) is None:
                out.append((self.decoration(id_, DEC_LOCATION), id_, self.pointee(ptype)))
        return sorted(out)

    def builtins(self, storage_class):
        """The BuiltIn numbers of |storage_class| variables (also block members)."""
        found = set()
        for id_, ptype, sc in self.variables:
            if sc != storage_class:
                continue
            b = self.decoration(id_, DEC_BUILTIN)
            if b is not None:
                found.add(b)
            t = self.types.get(self.pointee(ptype))
            if t and t.opcode == OP_TYPE_STRUCT:
                for m in range(len(t.operands)):
                    b = self.member_decoration(self.pointee(ptype), m, DEC_BUILTIN)
                    if b is not None:
                        found.add(b)
        return found

    def dynamic_descriptor_indexing(self, storage_class):
        """Whether an access chain indexes a descriptor array of |storage_class|
        variables with a non-constant index."""
        arrays = {id_ for id_, ptype, sc in self.variables if sc == storage_class and
                  self.types[self.pointee(ptype)].opcode in (OP_TYPE_ARRAY,
                                                             OP_TYPE_RUNTIME_ARRAY)}
        return any(base in arrays and indexes and indexes[0] not in self.constants
                   for base, indexes in self.access_chains)

    def array_length(self, type_id):
        return self.constants.get(self.types[type_id].operands[1], 1)

    def size_of(self, type_id, matrix_stride=None, row_major=False):
        """Bytes of an explicitly laid-out type (a runtime array adds nothing)."""
        t = self.types[type_id]
        if t.opcode in (OP_TYPE_INT, OP_TYPE_FLOAT):
            return t.operands[0] // 8
        if t.opcode == OP_TYPE_VECTOR:
            return self.size_of(t.operands[0]) * t.operands[1]
        if t.opcode == OP_TYPE_MATRIX:
            column = self.types[t.operands[0]]
            if matrix_stride:
                return matrix_stride * (column.operands[1] if row_major else t.operands[1])
            return self.size_of(t.operands[0]) * t.operands[1]
        if t.opcode == OP_TYPE_ARRAY:
            stride = self.decoration(type_id, DEC_ARRAY_STRIDE) or self.size_of(t.operands[0])
            return stride * self.array_length(type_id)
        if t.opcode == OP_TYPE_STRUCT:
            size = 0
            for m, member in enumerate(t.operands):
                offset = self.member_decoration(type_id, m, DEC_OFFSET)
                if offset is None:
                    continue
                size = max(size, offset + self.size_of(
                    member, self.member_decoration(type_id, m, DEC_MATRIX_STRIDE),
                    self.member_decoration(type_id, m, DEC_ROW_MAJOR) is not None))
            return size
        return 0

    def fill_block(self, type_id, words, offset, value, runtime_length):
        """Writes every scalar of the block type |type_id| at byte |offset| into
        |words| (a dict word index -> u32), each from value(kind) with kind
        "float"|"int"|"uint"; runtime arrays get |runtime_length| elements.
        Returns the end offset."""
        t = self.types[type_id]
        if t.opcode in (OP_TYPE_INT, OP_TYPE_FLOAT):
            kind = "float" if t.opcode == OP_TYPE_FLOAT else ("int" if t.operands[1] else "uint")
            if t.operands[0] != 32:
                raise ValueError("%d-bit scalars in a block are not filled" % t.operands[0])
            words[offset // 4] = value(kind)
            return offset + 4
        if t.opcode == OP_TYPE_VECTOR:
            for c in range(t.operands[1]):
                self.fill_block(t.operands[0], words, offset + 4 * c, value, runtime_length)
            return offset + 4 * t.operands[1]
        if t.opcode in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
            n = self.array_length(type_id) if t.opcode == OP_TYPE_ARRAY else runtime_length
            stride = self.decoration(type_id, DEC_ARRAY_STRIDE) or self.size_of(t.operands[0])
            for i in range(n):
                self.fill_block(t.operands[0], words, offset + i * stride, value, runtime_length)
            return offset + n * stride
        if t.opcode == OP_TYPE_STRUCT:
            end = offset
            for m, member in enumerate(t.operands):
                moff = self.member_decoration(type_id, m, DEC_OFFSET)
                if moff is None:
                    raise ValueError("a block member without Offset")
                mt = self.types[member]
                if mt.opcode == OP_TYPE_MATRIX:
                    stride = self.member_decoration(type_id, m, DEC_MATRIX_STRIDE) or 16
                    row_major = self.member_decoration(type_id, m, DEC_ROW_MAJOR) is not None
                    column = self.types[mt.operands[0]]
                    rows, cols = column.operands[1], mt.operands[1]
                    for c in range(cols):
                        for r in range(rows):
                            at = offset + moff + (r * stride + 4 * c if row_major
                                                  else c * stride + 4 * r)
                            words[at // 4] = value("float")
                    end = max(end, offset + moff + stride * (rows if row_major else cols))
                else:
                    end = max(end, self.fill_block(member, words, offset + moff, value,
                                                   runtime_length))
            return end
        raise ValueError("a block holding type opcode %d" % t.opcode)


class Resource:
    """A descriptor binding the module declares."""

    def __init__(self, set_, binding, type_, count, block=None, image_format=None,
                 runtime=False):
        self.set, self.binding, self.type, self.count = set_, binding, type_, count
        self.block = block            # buffers: the block's struct type id
        self.image_format = image_format
        self.runtime = runtime        # a runtime-sized descriptor array


def resources(module):
    """(resources, push-constant block type id or None); raises ValueError naming a
    resource vk_runner cannot bind."""
    found, push = [], None
    for id_, ptype, sc in module.variables:
        if sc == SC_PUSH_CONSTANT:
            push = module.pointee(ptype)
            continue
        if sc not in (SC_UNIFORM_CONSTANT, SC_UNIFORM, SC_STORAGE_BUFFER):
            continue
        where = "set %s binding %s" % (module.decoration(id_, DEC_DESCRIPTOR_SET),
                                       module.decoration(id_, DEC_BINDING))
        type_id = module.pointee(ptype)
        count, runtime = 1, False
        t = module.types[type_id]
        while t.opcode in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
            if t.opcode == OP_TYPE_RUNTIME_ARRAY:
                runtime = True
            else:
                count *= module.array_length(type_id)
            type_id = t.operands[0]
            t = module.types[type_id]
        set_ = module.decoration(id_, DEC_DESCRIPTOR_SET, 0)
        binding = module.decoration(id_, DEC_BINDING, 0)
        if sc in (SC_UNIFORM, SC_STORAGE_BUFFER):
            storage = sc == SC_STORAGE_BUFFER or module.decoration(type_id, DEC_BUFFER_BLOCK)
            found.append(Resource(set_, binding, "storage_buffer" if storage else
                                  "uniform_buffer", count, block=type_id, runtime=runtime))
            continue
        if t.opcode == OP_TYPE_SAMPLER:
            found.append(Resource(set_, binding, "sampler", count, runtime=runtime))
            continue
        image = module.types[t.operands[0]] if t.opcode == OP_TYPE_SAMPLED_IMAGE else t
        if image.opcode != OP_TYPE_IMAGE:
            raise ValueError("%s: a descriptor type the test cannot bind (opcode %d)"
                             % (where, t.opcode))
        dim, arrayed, ms, sampled, fmt = (image.operands[1], image.operands[3],
                                          image.operands[4], image.operands[5],
                                          image.operands[6])
        if dim == DIM_SUBPASS:
            raise ValueError("%s: a subpass input (vk_runner has no input attachments)" % where)
        if dim != DIM_2D or arrayed or ms:
            raise ValueError("%s: not a 2D, non-arrayed, single-sampled image" % where)
        if module.types[image.operands[0]].opcode != OP_TYPE_FLOAT:
            raise ValueError("%s: an integer image (vk_runner's formats are float)" % where)
        if t.opcode == OP_TYPE_SAMPLED_IMAGE:
            kind = "combined_image_sampler"
        else:
            kind = "storage_image" if sampled == 2 else "sampled_image"
        if kind == "storage_image" and fmt not in IMAGE_FORMAT_NAMES:
            raise ValueError("%s: storage image format %d" % (where, fmt))
        found.append(Resource(set_, binding, kind, count,
                              image_format=IMAGE_FORMAT_NAMES.get(fmt), runtime=runtime))
    return found, push
