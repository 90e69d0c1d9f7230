// included through -isystem
#pragma once
#define KF_SYS_SCALE 3
