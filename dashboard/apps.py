from django.apps import AppConfig

# The page's ES modules, relative to dashboard/static/dashboard/ (in every page's import map).
JS_MODULES = ("dashboard.js", "plots.js", "vendor/uplot/uPlot.esm.min.js")


class DashboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "dashboard"
    verbose_name = "Threshold dashboard"
    js_modules = tuple(f"dashboard/{name}" for name in JS_MODULES)
