#pragma once
/* A tree-sitter tree flattened into an array of node records, in one pass
   over tree-sitter's own subtrees. Written in C because it reads tree-sitter's
   internal headers: its public cursor re-derives visibility, aliases, fields
   and positions on every step, which costs more than the parse-side work
   fxlint adds. The result is what the public API reports (the unit tests
   compare the two node by node); it is tied to the pinned tree-sitter
   version. */
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  FXLINT_NODE_NAMED = 1,
  FXLINT_NODE_MISSING = 2,
  FXLINT_NODE_HAS_ERROR = 4, /* the node or a descendant is an error */
  FXLINT_NODE_IS_ERROR = 8,
};
#define FXLINT_NODE_NONE UINT32_MAX

/* One visible node (named or anonymous), as ts_node_* reports it. The children
   of a node are contiguous: [first_child, first_child + child_count). */
typedef struct FxlintNodeRecord {
  uint32_t start;  /* byte offsets */
  uint32_t end;
  uint32_t parent; /* FXLINT_NODE_NONE for the root */
  uint32_t first_child;
  uint32_t child_count;
  TSSymbol symbol; /* public symbol, aliases applied */
  TSFieldId field; /* this node's field in its parent, 0 when none */
  uint8_t kind;    /* the caller's classification of `symbol` */
  uint8_t flags;   /* FXLINT_NODE_* */
} FxlintNodeRecord;

/* A visible child of the root with its descendants, which are contiguous in
   the records. A later flatten of an edited version of the tree copies such a
   block when tree-sitter reused the very same subtree, instead of walking it:
   after a keystroke, every top-level statement but the edited one. */
typedef struct FxlintTopBlock {
  const void* subtree; /* tree-sitter's subtree; compared, never read */
  uint32_t slot;       /* the statement's own record */
  uint32_t start;      /* its start byte */
  uint32_t first;      /* its descendants' records: [first, end) */
  uint32_t end;
  uint32_t depth;      /* the deepest node's depth in the tree (the root is 1) */
} FxlintTopBlock;

typedef struct FxlintFlatTree {
  FxlintNodeRecord* nodes; /* malloc'ed; the caller frees it */
  uint32_t size;
  uint32_t depth; /* nodes on the longest root-to-leaf path */
  FxlintTopBlock* blocks; /* malloc'ed (may be NULL); the caller frees it */
  uint32_t block_count;
  uint32_t copied; /* blocks copied from `previous` */
} FxlintFlatTree;

/* Node 0 is the root. `kinds[symbol]` (symbol < kind_count) fills `kind`;
   other symbols get `error_kind` if they are the error symbol, else 0.
   `previous` (may be NULL) is the flattening of the tree this one was
   reparsed from; that tree must still be alive, so that a subtree found in
   both is the same subtree and not a new one at a reused address.
   `cancel` (may be NULL) is a word another thread may set, read atomically as
   tree-sitter reads its cancellation flag: once it is nonzero the flattening
   stops and returns no nodes, as when memory runs out. */
FxlintFlatTree fxlint_flatten(const TSTree* tree, const uint8_t* kinds, uint32_t kind_count, uint8_t error_kind,
                              const FxlintFlatTree* previous, const size_t* cancel);

#ifdef __cplusplus
}
#endif
