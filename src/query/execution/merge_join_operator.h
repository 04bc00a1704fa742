// MergeJoinOperator: an inner or left equi-join on one key of two inputs that both arrive sorted
// ascending by it (NULLs last), as subqueries with ORDER BY on the key do. Both stream: only the
// right rows of the current key are held, so memory is one key's rows, not a whole side.
// Output: the left input's columns, then the right's.
#pragma once

#include <string>
#include <vector>

#include "src/query/execution/hash_join_operator.h"
#include "src/query/execution/operator.h"

namespace gnomon::query {

class MergeJoinOperator final : public Operator {
 public:
  // kind: kInner or kLeft. The key columns must be of one comparable type.
  MergeJoinOperator(OperatorPtr left, OperatorPtr right, int left_key, int right_key, JoinKind kind,
                    std::string text, ExecutionContext* ctx);
  std::string Describe() const override;
  std::vector<const Operator*> children() const override { return {left_.get(), right_.get()}; }

 protected:
  Status NextImpl(Chunk* chunk, bool* done) override;

 private:
  // A side's rows, chunk by chunk, with a cursor.
  struct Cursor {
    Operator* op = nullptr;
    Chunk chunk;
    size_t row = 0;
    bool done = false;
    Status Fill(ExecutionContext* ctx);  // leaves a row under the cursor unless the side is at its end
    bool AtEnd() const { return row >= chunk.rows; }
  };
  Status CollectGroup();  // the right rows equal to the current left key, into group_
  void EmitRow(size_t group_row, bool right_null);
  void Flush(Chunk* chunk);

  OperatorPtr left_, right_;
  int left_key_, right_key_;
  JoinKind kind_;
  std::string text_;
  ExecutionContext* ctx_;
  Cursor l_, r_;
  Chunk group_;  // right rows of the key group_ holds (group_has_key_)
  bool group_has_key_ = false;
  Chunk out_;
  size_t width_left_ = 0;
};

}  // namespace gnomon::query
