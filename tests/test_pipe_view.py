"""pipe-view (issue 10, section 4): the page for one compile, checked in a real browser.

The browser test opens the generated page in headless Chromium through
Selenium (Debian packages chromium, chromium-driver, python3-selenium; the
test command installs them) and checks that it loads without script errors,
that the steps can be walked with the buttons, the list, the arrow keys and
the address, and that hovering a source line marks exactly the nodes of the
current step that came from it, in the text and in the drawing, all filled
with that line's colour.
"""
import re
import shutil

import pytest

from conftest import ROOT, run_tool

SAMPLE = ROOT / "tests" / "view" / "fold.c"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    if shutil.which("dot") is None:
        pytest.fail("Graphviz is not installed (Debian package graphviz; scripts/test installs it)")
    out = tmp_path_factory.mktemp("view") / "fold.html"
    run_tool("pipe-view", SAMPLE, "-o", out, check=0, timeout=300)
    return out


def steps_of(html):
    return re.findall(r'<div class="step" id="step(\d+)" data-title="([^"]*)"', html)


def test_page_is_self_contained_and_has_every_stage(page):
    html = page.read_text()
    assert "<script src" not in html and "<link" not in html and "http://" not in html.replace(
        "http://www.w3.org", "")  # only the SVG namespaces
    titles = [t for _, t in steps_of(html)]
    for stage in ("c2ast", "ast2cfg", "cfg2ssa", "ssa2son", "son-lower-x64", "son2cfg", "regalloc-x64"):
        assert stage in titles, titles
    assert any(t.startswith("cfgopt -O2") for t in titles), titles
    # the machine code last, as assembly whose instructions carry their source lines
    assert titles[-1] == "codegen-x64", titles
    last = html.split(f'id="step{len(titles) - 1}"')[1]
    assert "x86-64 assembly" in last and "codegen-x64" in last and " -f asm -g " in last
    rows = re.findall(r'<div class="row L(\d+)" data-line="(\d+)">\s*(\S+)', last)
    assert rows and all(a == b for a, b, _ in rows), rows[:5]
    assert not any(op.startswith(".") or op.endswith(":") for _, _, op in rows), rows  # instructions only
    assert ".loc" not in last and "printf" in last  # sonopt -O2 folds the loop: the call is what is left
    # sonopt pass by pass: each application that changed something is a step
    assert any(t.startswith("sonopt -O2: idealize on ") for t in titles), titles
    # every stage is drawn, its nodes named as pipe-dot names them and matched to the source
    assert html.count("<svg") == len(titles) - 1  # the assembly is text only
    assert re.search(r'<g id="s0_f0_i\d+" class="node L\d+[^"]*" data-node="f0_i\d+" data-line="\d+"', html)
    # a pass step marks what it changed
    assert 'class="row chg' in html or 'class="row in chg' in html or re.search(r'class="row L\d+ chg', html)


def test_c_error_is_reported_like_c2ast(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("int main(void) { return nope; }\n")
    proc = run_tool("pipe-view", bad, "-o", tmp_path / "bad.html", check=1)
    assert b"bad.c:1:" in proc.stderr and b"nope" in proc.stderr
    assert not (tmp_path / "bad.html").exists()


def test_stop_after_and_o0(tmp_path):
    out = tmp_path / "p.html"
    run_tool("pipe-view", "-O0", "--stop-after", "cfg2ssa", SAMPLE, "-o", out, check=0)
    assert [t for _, t in steps_of(out.read_text())] == ["c2ast", "ast2cfg", "cfg2ssa"]
    run_tool("pipe-view", "-O3", SAMPLE, check=2)


def start_chromium():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("python3-selenium is not installed (scripts/test installs it)")
    driver_path = shutil.which("chromedriver")
    if driver_path is None:
        pytest.fail("chromedriver is not installed (Debian package chromium-driver; scripts/test installs it)")
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1600,1000"):
        options.add_argument(arg)
    if shutil.which("chromium"):
        options.binary_location = shutil.which("chromium")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as e:  # the one reason to skip: no browser can start here
        pytest.skip(f"headless Chromium cannot start in this environment: {e}")


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    yield driver
    driver.quit()


def rgb(css):
    """The red, green, blue of a CSS colour as the browser computes it ('rgb(1, 2, 3)' or 'rgba(1, 2, 3, 1)')."""
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


def current_step(driver):
    shown = [e for e in driver.find_elements("css selector", ".step") if e.is_displayed()]
    assert len(shown) == 1
    return shown[0]


def test_in_browser_navigation_and_colour_matching(page, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    d = browser
    d.get(page.as_uri())
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], errors
    n = len(d.find_elements("css selector", ".step"))
    assert n >= 5 and current_step(d).get_attribute("id") == "step0"
    pos = d.find_element("id", "pos")
    assert pos.text == f"1 / {n}"

    # navigation: buttons, keys, the list, the address
    d.find_element("id", "next").click()
    assert current_step(d).get_attribute("id") == "step1" and pos.text == f"2 / {n}"
    d.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
    assert current_step(d).get_attribute("id") == "step2"
    d.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    d.find_element("id", "prev").click()
    assert current_step(d).get_attribute("id") == "step0"
    d.find_element("id", "prev").click()  # stays at the first step
    assert current_step(d).get_attribute("id") == "step0"
    titles = [o.text for o in Select(d.find_element("id", "stepsel")).options]
    son = next(i for i, t in enumerate(titles) if t.endswith(". ssa2son"))
    Select(d.find_element("id", "stepsel")).select_by_index(son)
    assert current_step(d).get_attribute("id") == f"step{son}"
    assert d.current_url.endswith(f"#step={son}")
    d.get(page.as_uri() + "#step=3")
    d.refresh()
    assert current_step(d).get_attribute("id") == "step3"
    Select(d.find_element("id", "stepsel")).select_by_index(son)

    # hovering a source line marks exactly its nodes, in text and drawing
    step = current_step(d)
    line = d.execute_script(
        "var s=arguments[0]; var ls=[...s.querySelectorAll('g.node[data-line]')].map(e=>e.getAttribute('data-line'));"
        "return ls.find(l => s.querySelector('.row[data-line=\"'+l+'\"]'));", step)
    assert line, "no node of the son step has a source line"
    src = d.find_element("css selector", f'#source [data-line="{line}"]')
    ActionChains(d).move_to_element(src).perform()
    assert "hot" in src.get_attribute("class").split()
    hot = step.find_elements("css selector", ".hot")
    want = step.find_elements("css selector", f'[data-line="{line}"]')
    assert hot and {e.id for e in hot} == {e.id for e in want}
    assert any(e.tag_name == "g" for e in hot) and any("row" in e.get_attribute("class") for e in hot)

    # colour matching: the source line, its text rows and its drawn nodes share one colour
    colour = src.value_of_css_property("background-color")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")
    for row in step.find_elements("css selector", f'.row[data-line="{line}"]'):
        assert rgb(row.value_of_css_property("background-color")) == rgb(colour)
    fills = d.execute_script(
        "return [...arguments[0].querySelectorAll('g.node[data-line=\"' + arguments[1] + '\"]')]"
        ".map(g => getComputedStyle(g.querySelector('ellipse, polygon, path')).fill);", step, line)
    assert fills and all(rgb(f) == rgb(colour) for f in fills), (fills, colour)
    other = d.find_elements("css selector", f'#source [data-line]:not([data-line="{line}"])')
    assert other and rgb(other[0].value_of_css_property("background-color")) != rgb(colour)

    # hovering a drawn node marks its source line
    node = step.find_elements("css selector", "g.node[data-line]")[-1]
    node_line = node.get_attribute("data-line")
    ActionChains(d).move_to_element(node.find_element("css selector", "ellipse, polygon, path")).perform()
    assert "hot" in d.find_element("css selector", f'#source [data-line="{node_line}"]').get_attribute("class")
    same = step.find_elements("css selector", f'[data-node="{node.get_attribute("data-node")}"]')
    assert len(same) == 2 and all("self" in e.get_attribute("class").split() for e in same)

    # on the assembly step, a source line marks its instructions
    Select(d.find_element("id", "stepsel")).select_by_index(len(titles) - 1)
    step = current_step(d)
    asm_line = step.find_elements("css selector", ".row[data-line]")[0].get_attribute("data-line")
    ActionChains(d).move_to_element(d.find_element("css selector", f'#source [data-line="{asm_line}"]')).perform()
    hot = step.find_elements("css selector", ".hot")
    assert hot and {e.id for e in hot} == {e.id for e in step.find_elements("css selector", f'[data-line="{asm_line}"]')}

    # a sonopt pass step shows what it changed
    opt = next(i for i, t in enumerate(titles) if "sonopt -O2: idealize" in t)
    Select(d.find_element("id", "stepsel")).select_by_index(opt)
    assert current_step(d).find_elements("css selector", ".row.chg")
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], errors
