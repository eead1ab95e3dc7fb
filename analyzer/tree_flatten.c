#include "analyzer/tree_flatten.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* tree-sitter's internal headers (lib/src of the pinned runtime). */
#include "language.h"
#include "length.h"
#include "subtree.h"
#include "tree.h"

/* The children of one subtree being visited. A hidden subtree (a grammar
   helper rule) is visited like a visible one, but its visible descendants
   become children of the nearest visible ancestor, as tree-sitter's cursor
   presents them. */
typedef struct Frame {
  Subtree tree;
  Length position;       /* of the next child, after its padding */
  uint32_t child;        /* next child */
  uint32_t structural;   /* next child that is not an extra (aliases and fields count these) */
  uint32_t parent;       /* record of the visible node the children belong to */
  uint32_t slots;        /* frame whose next_slot hands out the parent's child records */
  uint32_t next_slot;    /* visible frames only */
  uint32_t depth;        /* of `parent`: the root is at depth 1 */
  TSFieldId inherited;   /* a hidden subtree's field, passed on to its children */
  const TSSymbol* aliases;
  const TSFieldMapEntry* fields;
  const TSFieldMapEntry* fields_end;
} Frame;

typedef struct Builder {
  const TSLanguage* language;
  const uint8_t* kinds;
  uint32_t kind_count;
  uint8_t error_kind;
  FxlintNodeRecord* nodes;
  uint32_t size, capacity;
  Frame* frames;
  uint32_t frame_count, frame_capacity;
  FxlintTopBlock* blocks;
  uint32_t block_count, block_capacity;
  bool failed;
} Builder;

static uint32_t reserve_records(Builder* b, uint32_t count) {
  uint32_t first = b->size;
  if (b->size + count > b->capacity) {
    uint32_t capacity = b->capacity ? b->capacity : 256;
    while (b->size + count > capacity) capacity *= 2;
    FxlintNodeRecord* grown = realloc(b->nodes, (size_t)capacity * sizeof(FxlintNodeRecord));
    if (!grown) {
      b->failed = true;
      return first;
    }
    b->nodes = grown;
    b->capacity = capacity;
  }
  b->size += count;
  return first;
}

static FxlintTopBlock* add_block(Builder* b) {
  if (b->block_count == b->block_capacity) {
    uint32_t capacity = b->block_capacity ? b->block_capacity * 2 : 64;
    FxlintTopBlock* grown = realloc(b->blocks, (size_t)capacity * sizeof(FxlintTopBlock));
    if (!grown) {
      b->failed = true;
      return NULL;
    }
    b->blocks = grown;
    b->block_capacity = capacity;
  }
  return &b->blocks[b->block_count++];
}

/* The block of `previous` holding `subtree`, searched from *cursor on (blocks
   keep their order, so the search moves forward); NULL when none. */
static const FxlintTopBlock* find_block(const FxlintFlatTree* previous, uint32_t* cursor, const void* subtree) {
  if (!previous) return NULL;
  for (uint32_t k = *cursor; k < previous->block_count; ++k) {
    if (previous->blocks[k].subtree == subtree) {
      *cursor = k + 1;
      return &previous->blocks[k];
    }
  }
  return NULL;
}

/* Copies a block of `previous` to `index` and fresh records: bytes move by
   where the statement now starts, record indices by where the copy lands. */
static void copy_block(Builder* b, const FxlintFlatTree* previous, const FxlintTopBlock* old, uint32_t index,
                       uint32_t start) {
  uint32_t count = old->end - old->first;
  uint32_t first = count > 0 ? reserve_records(b, count) : 0;
  if (b->failed) return;
  uint32_t bytes = start - old->start; /* unsigned arithmetic wraps back for a move to the left */
  uint32_t shift = first - old->first;
  FxlintNodeRecord* r = &b->nodes[index];
  *r = previous->nodes[old->slot];
  r->start += bytes;
  r->end += bytes;
  r->parent = 0;
  r->first_child = count > 0 ? first : 0;
  if (count > 0) memcpy(&b->nodes[first], &previous->nodes[old->first], (size_t)count * sizeof(FxlintNodeRecord));
  for (FxlintNodeRecord *q = &b->nodes[first], *e = q + count; q < e; ++q) {
    q->start += bytes;
    q->end += bytes;
    q->parent = q->parent == old->slot ? index : q->parent + shift;
    if (q->child_count > 0) q->first_child += shift;
  }
  FxlintTopBlock* copy = add_block(b);
  if (copy) *copy = (FxlintTopBlock){old->subtree, index, start, first, first + count, old->depth};
}

static void push_frame(Builder* b, Subtree tree, Length position, uint32_t parent, uint32_t slots, uint32_t next_slot,
                       uint32_t depth, TSFieldId inherited) {
  if (b->frame_count == b->frame_capacity) {
    uint32_t capacity = b->frame_capacity ? b->frame_capacity * 2 : 64;
    Frame* grown = realloc(b->frames, (size_t)capacity * sizeof(Frame));
    if (!grown) {
      b->failed = true;
      return;
    }
    b->frames = grown;
    b->frame_capacity = capacity;
  }
  Frame* f = &b->frames[b->frame_count];
  uint16_t production = tree.ptr->production_id;
  f->tree = tree;
  f->position = position;
  f->child = 0;
  f->structural = 0;
  f->parent = parent;
  f->slots = slots == UINT32_MAX ? b->frame_count : slots;
  f->next_slot = next_slot;
  f->depth = depth;
  f->inherited = inherited;
  f->aliases = ts_language_alias_sequence(b->language, production);
  ts_language_field_map(b->language, production, &f->fields, &f->fields_end);
  b->frame_count++;
}

/* Writes the record of a visible subtree at `depth` and, when it has
   children, opens their slots and a frame to visit them. */
static void visit_visible(Builder* b, uint32_t index, Subtree tree, Length position, TSSymbol alias, uint32_t parent,
                          TSFieldId field, uint32_t depth) {
  TSSymbol symbol = ts_language_public_symbol(b->language, alias ? alias : ts_subtree_symbol(tree));
  bool named = alias ? ts_language_symbol_metadata(b->language, alias).named : ts_subtree_named(tree);
  uint8_t flags = 0;
  if (named) flags |= FXLINT_NODE_NAMED;
  if (ts_subtree_missing(tree)) flags |= FXLINT_NODE_MISSING;
  if (ts_subtree_error_cost(tree) > 0) flags |= FXLINT_NODE_HAS_ERROR;
  if (symbol == ts_builtin_sym_error) flags |= FXLINT_NODE_IS_ERROR;
  uint8_t kind = symbol < b->kind_count ? b->kinds[symbol] : symbol == ts_builtin_sym_error ? b->error_kind : 0;
  uint32_t count = ts_subtree_visible_child_count(tree);
  uint32_t first = count > 0 ? reserve_records(b, count) : 0;
  if (b->failed) return;
  FxlintNodeRecord* r = &b->nodes[index];
  r->start = position.bytes;
  r->end = position.bytes + ts_subtree_size(tree).bytes;
  r->parent = parent;
  r->first_child = first;
  r->child_count = count;
  r->symbol = symbol;
  r->field = field;
  r->kind = kind;
  r->flags = flags;
  if (count > 0) push_frame(b, tree, position, index, UINT32_MAX, first, depth, 0);
}

/* Whether to stop: looked at every few thousand nodes and before each
   statement of the module, so that a cancelled flattening of a large file
   stops within a fraction of a millisecond. */
static bool cancelled(const size_t* cancel, uint32_t* countdown, bool now) {
  if (!cancel || (!now && --*countdown > 0)) return false;
  *countdown = 4096;
  return __atomic_load_n(cancel, __ATOMIC_RELAXED) != 0;
}

FxlintFlatTree fxlint_flatten(const TSTree* tree, const uint8_t* kinds, uint32_t kind_count, uint8_t error_kind,
                              const FxlintFlatTree* previous, const size_t* cancel) {
  Builder b = {tree->language, kinds, kind_count, error_kind, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0, false};
  /* About one node per five bytes of source; unused capacity is never touched. */
  reserve_records(&b, 1);
  uint32_t guess = ts_subtree_total_bytes(tree->root) / 4 + 16;
  if (!b.failed && guess > b.capacity) {
    FxlintNodeRecord* grown = realloc(b.nodes, (size_t)guess * sizeof(FxlintNodeRecord));
    if (grown) {
      b.nodes = grown;
      b.capacity = guess;
    }
  }
  uint32_t depth = 1;
  uint32_t cursor = 0;      /* into previous->blocks */
  uint32_t copied = 0;
  int64_t open_block = -1;  /* the root child whose descendants are being visited */
  uint32_t open_level = 0;  /* frames on the stack while its frame is */
  uint32_t countdown = 4096;
  if (!b.failed) visit_visible(&b, 0, tree->root, ts_subtree_padding(tree->root), 0, FXLINT_NODE_NONE, 0, 1);
  while (b.frame_count > 0 && !b.failed) {
    if (cancelled(cancel, &countdown, false)) {
      b.failed = true;
      break;
    }
    Frame* f = &b.frames[b.frame_count - 1];
    if (f->child == ts_subtree_child_count(f->tree)) {
      b.frame_count--;
      if (open_block >= 0 && b.frame_count < open_level) {
        b.blocks[open_block].end = b.size;
        open_block = -1;
      }
      continue;
    }
    Subtree child = ts_subtree_children(f->tree)[f->child];
    if (f->child > 0) f->position = length_add(f->position, ts_subtree_padding(child));
    Length position = f->position;
    f->position = length_add(f->position, ts_subtree_size(child));
    f->child++;

    bool extra = ts_subtree_extra(child);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      if (f->aliases) alias = f->aliases[f->structural];
      for (const TSFieldMapEntry* m = f->fields; m < f->fields_end; ++m) {
        if (!m->inherited && m->child_index == f->structural) {
          field = m->field_id;
          break;
        }
      }
      if (!field) field = f->inherited;
      f->structural++;
    }
    if (ts_subtree_visible(child) || alias) {
      uint32_t index = b.frames[f->slots].next_slot++;
      uint32_t child_depth = f->depth + 1;
      /* A statement of the module (the root's own frame, or a hidden repeat
         node under it, hands out the root's slots): its whole subtree may be copied. */
      bool top = f->parent == 0 && !child.data.is_inline && !alias && !field;
      if (top && cancelled(cancel, &countdown, true)) {
        b.failed = true;
        break;
      }
      const FxlintTopBlock* old = top ? find_block(previous, &cursor, child.ptr) : NULL;
      if (old) {
        copy_block(&b, previous, old, index, position.bytes);
        copied++;
        if (old->depth > depth) depth = old->depth;
        continue;
      }
      if (child_depth > depth) depth = child_depth;
      if (open_block >= 0 && child_depth > b.blocks[open_block].depth) b.blocks[open_block].depth = child_depth;
      uint32_t before = b.size, frames = b.frame_count;
      visit_visible(&b, index, child, position, alias, f->parent, field, child_depth);
      if (top && !b.failed) {
        FxlintTopBlock* block = add_block(&b);
        if (!block) break;
        *block = (FxlintTopBlock){child.ptr, index, position.bytes, before, b.size, child_depth};
        if (b.frame_count > frames) { /* visit_visible pushed the child's frame */
          open_block = (int64_t)(block - b.blocks);
          open_level = b.frame_count;
        }
      }
    } else if (ts_subtree_child_count(child) > 0) {
      push_frame(&b, child, position, f->parent, f->slots, 0, f->depth, field);
    }
  }
  free(b.frames);
  if (b.failed) {
    free(b.nodes);
    free(b.blocks);
    return (FxlintFlatTree){NULL, 0, 0, NULL, 0, 0};
  }
  return (FxlintFlatTree){b.nodes, b.size, depth, b.blocks, b.block_count, copied};
}
