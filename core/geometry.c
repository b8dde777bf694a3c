#include "wm_geometry.h"

#include <math.h>

float wm_tri_normal(const float a[3], const float b[3], const float c[3], float out[3])
{
    double u[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
    double v[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > 0.0) {
        for (int k = 0; k < 3; k++)
            out[k] = (float)(n[k] / len);
    } else {
        out[0] = out[1] = out[2] = 0.0f;
    }
    return (float)len;
}

float wm_tri_area(const float a[3], const float b[3], const float c[3])
{
    float n[3];
    return 0.5f * wm_tri_normal(a, b, c, n);
}

int wm_point_in_tri_xy(const float a[3], const float b[3], const float c[3], float x, float y, float eps)
{
    double d1 = ((double)x - b[0]) * ((double)a[1] - b[1]) - ((double)a[0] - b[0]) * ((double)y - b[1]);
    double d2 = ((double)x - c[0]) * ((double)b[1] - c[1]) - ((double)b[0] - c[0]) * ((double)y - c[1]);
    double d3 = ((double)x - a[0]) * ((double)c[1] - a[1]) - ((double)c[0] - a[0]) * ((double)y - a[1]);
    int has_neg = d1 < -eps || d2 < -eps || d3 < -eps;
    int has_pos = d1 > eps || d2 > eps || d3 > eps;
    return !(has_neg && has_pos);
}

int wm_tri_height_at(const float a[3], const float b[3], const float c[3], float x, float y, float *out_z)
{
    float n[3];
    wm_tri_normal(a, b, c, n);
    if (fabsf(n[2]) < 1e-8f)
        return 0;
    double d = -((double)n[0] * a[0] + (double)n[1] * a[1] + (double)n[2] * a[2]);
    *out_z = (float)(-(n[0] * (double)x + n[1] * (double)y + d) / n[2]);
    return 1;
}

int wm_ray_tri(const float orig[3], const float dir[3], const float a[3], const float b[3], const float c[3],
               float *out_t)
{
    double e1[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
    double e2[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
    double p[3] = {dir[1] * e2[2] - dir[2] * e2[1], dir[2] * e2[0] - dir[0] * e2[2], dir[0] * e2[1] - dir[1] * e2[0]};
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (fabs(det) < 1e-12)
        return 0;
    double inv = 1.0 / det;
    double s[3] = {(double)orig[0] - a[0], (double)orig[1] - a[1], (double)orig[2] - a[2]};
    double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
    const double eps = 1e-7;
    if (u < -eps || u > 1.0 + eps)
        return 0;
    double q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
    double v = (dir[0] * q[0] + dir[1] * q[1] + dir[2] * q[2]) * inv;
    if (v < -eps || u + v > 1.0 + eps)
        return 0;
    double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
    if (t < 0.0)
        return 0;
    *out_t = (float)t;
    return 1;
}
