// Proves that vkdml/directml.h steps aside when the real DirectML.h (which defines DIRECTML_H) came
// first: the definitions below would collide with the mirror's if it had defined anything.
// Built as its own program so its stand-in types never meet the mirror's in one binary.
#define DIRECTML_H 1
// What the real DirectML.h declares that vkdml's own descriptions, declared beside it, are made of.
typedef struct DML_TENSOR_DESC DML_TENSOR_DESC;
typedef enum DML_AXIS_DIRECTION { DML_AXIS_DIRECTION_INCREASING = 0 } DML_AXIS_DIRECTION;
#include "vkdml/directml.h"

#ifdef VKDML_DIRECTML_MIRROR
#error "vkdml/directml.h defined its mirror although DIRECTML_H was defined"
#endif

typedef enum DML_TENSOR_DATA_TYPE {
    DML_TENSOR_DATA_TYPE_UNKNOWN = 0,
    STAND_IN_ONLY = 42
} DML_TENSOR_DATA_TYPE;
struct DML_BUFFER_TENSOR_DESC {
    int stand_in;
};
static int DMLCalcBufferTensorSize(int x) {
    return x;
}

int main() {
    // vkdml's own descriptions are declared beside the real header's types.
    VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC extension{nullptr, nullptr, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    if (extension.Axis != 0) return 1;
    VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC lse{nullptr, nullptr, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    if (lse.Axis != 1) return 1;
    DML_BUFFER_TENSOR_DESC d{STAND_IN_ONLY};
    return DMLCalcBufferTensorSize(d.stand_in) == 42 ? 0 : 1;
}
