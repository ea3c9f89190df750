#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H

// libqrencode's API is plain functions and structs that Swift calls directly
// (`QRcode_encodeString`, `QRcode_free`); nothing needs wrapping.
#include <qrencode.h>

#endif
